package cmd

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// parkedAndAnsweredElsewhere: machine b runs an asking task, which parks
// with its draft and hands its claim off; a third clone c answers it. a
// has not synced since.
func parkedAndAnsweredElsewhere(t *testing.T) (*twoClones, string) {
	t.Helper()
	c := newTwoClones(t, "agent:\n  kind: command\n  command: [fakeagent]\nremote: origin\nautoSync: 1h\nlease: 1m\n",
		soakPlans, []string{"Ask soak 00"}, "a", "b", "c")
	id := c.ids["Ask soak 00"]
	c.must(t, "b", "worker", "--once")
	c.must(t, "c", "sync")
	c.must(t, "c", "respond", id, "go-ahead")
	c.must(t, "c", "sync")
	return c, id
}

// TestAnsweredElsewhereWaitsForTheSync: a task open again on the remote
// after a run a's clone has not seen (b parked it, c answered) is not
// ready on a until a's sync brings its file: a's file, open since before,
// has neither the run's session nor its question, and a claim would run
// it afresh. After the sync a resumes it with b's draft.
func TestAnsweredElsewhereWaitsForTheSync(t *testing.T) {
	t.Parallel()
	c, id := parkedAndAnsweredElsewhere(t)
	if code, out := c.bh(t, "a", "claim", "--next", "--remote"); code != 1 || !strings.Contains(out, "no task is ready") {
		t.Fatalf("a, not synced, claimed the task b parked and c answered: exit %d\n%s", code, out)
	}
	c.must(t, "a", "worker", "--once") // syncs first
	c.ranOnceAndLanded(t, id)
}

// TestAbandonedClaimHidesNoParkedWork: a worker of a's killed right after
// it claimed the task on the remote (before its own file said so) leaves
// a's claim as the last; the next worker hands that claim off and claims
// the task again. The parked work it adopts is the one the task's history
// names, b's, though the claim before its own was a's.
func TestAbandonedClaimHidesNoParkedWork(t *testing.T) {
	t.Parallel()
	c, id := parkedAndAnsweredElsewhere(t)
	c.must(t, "a", "sync")
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	claim, _ := json.Marshal(map[string]any{"task": id, "state": "held", "worker": "worker", "host": "machine-a",
		"pid": dead.Process.Pid, "clone": gitE2E(t, c.dir("a"), "rev-parse", "--show-toplevel"),
		"expires": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
	a := c.dir("a")
	blob := gitIn(t, a, string(claim), "hash-object", "-w", "--stdin")
	tree := gitIn(t, a, "100644 blob "+blob+"\tclaim.json\n", "mktree")
	commit := gitE2E(t, a, "commit-tree", tree, "-m", "bh: "+id+" held by worker on machine-a")
	gitE2E(t, a, "push", "-q", "-f", "origin", commit+":refs/bh/claims/"+id)

	c.must(t, "a", "worker", "--once")
	c.ranOnceAndLanded(t, id)
}

// must runs bh in clone name and fails the test unless it exits 0.
func (c *twoClones) must(t *testing.T, name string, args ...string) {
	t.Helper()
	if code, out := c.bh(t, name, args...); code != 0 {
		t.Fatalf("bh %s in %s: exit %d\n%s", strings.Join(args, " "), name, code, out)
	}
}

// ranOnceAndLanded: id ran afresh once, resumed in its session, and its
// work (the draft the resumed run needs) landed once on the remote.
func (c *twoClones) ranOnceAndLanded(t *testing.T, id string) {
	t.Helper()
	fresh, strange := c.runs(t)
	if fresh[id] != 1 || strange[id] != 0 {
		t.Errorf("%s: %d fresh runs and %d in another session, want 1 and 0", id, fresh[id], strange[id])
	}
	if n := c.landed(t)[id]; n != 1 {
		t.Errorf("%s landed %d times on the remote's main, want once", id, n)
	}
	if out, err := exec.Command("git", "--git-dir", c.remote, "show", "main:"+id+".txt").Output(); err != nil ||
		strings.TrimSpace(string(out)) != "done" {
		t.Errorf("%s.txt on the remote's main: %q (%v): the resumed run did not find its draft", id, out, err)
	}
}

// gitIn runs git in dir with stdin and returns its output, trimmed.
func gitIn(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestOwnStaleWorktreeYieldsToWorkParkedElsewhere: b's first run of the
// task ends blocked with nothing changed, keeping its worktree; reopened,
// the task runs on a, which drafts, asks and parks the draft. When b
// claims it again after the answer, the work is a's parked draft, not
// b's worktree, older and empty, which b never parked.
func TestOwnStaleWorktreeYieldsToWorkParkedElsewhere(t *testing.T) {
	t.Parallel()
	plans := "-- ask.plan --\nmatch Ask twice\non first\nprint {\"status\":\"blocked\",\"summary\":\"not yet\"}\nexit 0\non resume\n" + askSteps
	c := newTwoClones(t, "agent:\n  kind: command\n  command: [fakeagent]\nremote: origin\nautoSync: 1h\nlease: 1m\n",
		plans, []string{"Ask twice"}, "a", "b", "c")
	id := c.ids["Ask twice"]
	c.must(t, "b", "worker", "--once")
	c.must(t, "b", "sync")
	c.must(t, "c", "sync")
	c.must(t, "c", "reopen", id)
	c.must(t, "c", "sync")
	c.must(t, "a", "sync")
	c.must(t, "a", "worker", "--once")
	c.must(t, "a", "sync")
	c.must(t, "c", "sync")
	c.must(t, "c", "respond", id, "go-ahead")
	c.must(t, "c", "sync")
	c.must(t, "b", "worker", "--once")
	c.ranOnceAndLanded(t, id)
}
