package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// holdPush stands in for git on machine a's PATH: while $GATE/hold exists,
// a push of a branch waits (and says so in $GATE/waiting). That is the
// instant between a run's end and its task file reaching the remote.
const holdPush = `#!/bin/sh
case " $* " in *" push "*refs/heads/*)
  if [ -e "$GATE/hold" ]; then
    : > "$GATE/waiting"
    i=0; while [ -e "$GATE/hold" ] && [ $i -lt 6000 ]; do sleep 0.05; i=$((i+1)); done
  fi;;
esac
exec "$REAL_GIT" "$@"
`

const handoffPlans = `-- ask.plan --
match Ask Q
on first
write ask.txt drafted on the first run
print {"status":"needs_input","summary":"drafted","question":"Which port?"}
on resume
expect use-port-8080
need ask.txt
write ask2.txt done
print {"status":"completed","summary":"done"}
-- block.plan --
match Block Q
on first
write block.txt half
print {"status":"blocked","summary":"the schema is missing"}
on resume
need block.txt
print {"status":"completed","summary":"done"}
-- fail.plan --
match Fail Q
on first
print {"status":"failed","summary":"cannot"}
on resume
write fail.txt done
print {"status":"completed","summary":"done"}
`

// TestParkedTaskNotRunTwice: machine a parks one task on a question,
// blocks one and fails one; b's worker runs while a's task files are not
// on the remote yet, and runs none of them (a still holds their claims).
// Once a's files are there, a b that has not synced still cannot claim
// them (the remote's files say they wait). After the answer and the
// reopens, b resumes each in its session with a's parked work, each
// lands once, and a's next sync is clean.
func TestParkedTaskNotRunTwice(t *testing.T) {
	t.Parallel()
	titles := []string{"Ask Q", "Block Q", "Fail Q"}
	c := newTwoClones(t, "agent:\n  kind: command\n  command: [fakeagent]\nremote: origin\nautoSync: 1h\nlease: 1m\n",
		handoffPlans, titles, "a", "b")
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	wrap, gate := filepath.Join(c.root, "wrap"), filepath.Join(c.root, "gate")
	os.MkdirAll(wrap, 0o755)
	os.MkdirAll(gate, 0o755)
	writeE2E(t, wrap, "git", holdPush)
	os.Chmod(filepath.Join(wrap, "git"), 0o755)
	writeE2E(t, gate, "hold", "")

	a := c.cmd("a", []string{"GATE=" + gate, "REAL_GIT=" + realGit}, "worker", "--once", "-j", "3")
	a.Env = append(a.Env, "PATH="+wrap+string(os.PathListSeparator)+c.bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var aOut strings.Builder
	a.Stdout, a.Stderr = &aOut, &aOut
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	aDone := make(chan error, 1)
	go func() { aDone <- a.Wait() }()
	eventually(t, 3*time.Minute, "a's worker never pushed its parked task files", func() bool {
		select {
		case err := <-aDone:
			t.Fatalf("a's worker ended before its push: %v\n%s", err, aOut.String())
		default:
		}
		_, err := os.Stat(filepath.Join(gate, "waiting"))
		fresh, _ := c.runs(t)
		return err == nil && sum(fresh) == len(titles) // every run of a's has started
	})

	// b's worker runs in between: a's claims hold.
	before, _ := c.runs(t)
	if code, out := c.bh(t, "b", "worker", "--once"); code != 0 {
		t.Fatalf("b's worker: exit %d\n%s", code, out)
	} else {
		t.Logf("b's worker while a pushes:\n%s", out)
	}
	if after, _ := c.runs(t); len(after) != len(before) || sum(after) != sum(before) {
		t.Fatalf("b ran a task a had parked: runs %v, then %v", before, after)
	}

	os.Remove(filepath.Join(gate, "hold"))
	if err := <-aDone; err != nil {
		t.Fatalf("a's worker: %v\n%s", err, aOut.String())
	}
	t.Logf("a's worker:\n%s", aOut.String())
	for _, title := range titles {
		id := c.ids[title]
		claim := gitE2E(t, c.root, "--git-dir", c.remote, "show", "refs/bh/claims/"+id+":claim.json")
		if !strings.Contains(claim, `"state": "released"`) {
			t.Errorf("%s: a's claim is not released after its push:\n%s", title, claim)
		}
		file := gitE2E(t, c.root, "--git-dir", c.remote, "show", "main:.bh/tasks/"+id+".yaml")
		if strings.Contains(file, "state: open") {
			t.Errorf("%s: the remote's task file is still open after a's claim was released", title)
		}
	}

	// b has not synced: its files say open, the claims are released, and
	// still the remote's files say the tasks wait.
	if code, out := c.bh(t, "b", "claim", "--next", "--remote"); code != 1 || !strings.Contains(out, "no task is ready") {
		t.Fatalf("b, not synced, claimed a parked task: exit %d\n%s", code, out)
	}

	// A third party answers and reopens from b; b's worker resumes all three.
	b := c.dir("b")
	bhE2E(t, b, "sync")
	bhE2E(t, b, "respond", c.ids["Ask Q"], "use-port-8080")
	bhE2E(t, b, "reopen", c.ids["Block Q"])
	bhE2E(t, b, "reopen", c.ids["Fail Q"])
	bhE2E(t, b, "sync")
	if code, out := c.bh(t, "b", "worker", "--once"); code != 0 {
		t.Fatalf("b's worker: exit %d\n%s", code, out)
	} else {
		t.Logf("b's worker after the answers:\n%s", out)
	}
	bhE2E(t, c.dir("a"), "sync")

	fresh, strange := c.runs(t)
	landed := c.landed(t)
	for _, title := range titles {
		id := c.ids[title]
		if fresh[id] != 1 || strange[id] != 0 {
			t.Errorf("%s: %d fresh runs and %d in another session, want 1 and 0", title, fresh[id], strange[id])
		}
		if landed[id] != 1 {
			t.Errorf("%s landed %d times on the remote's main, want once", title, landed[id])
		}
		if st := bhTask(t, c.dir("a"), id).State; st != "closed" {
			t.Errorf("%s is %s in a after its sync, want closed", title, st)
		}
	}
	if got := gitE2E(t, c.root, "--git-dir", c.remote, "show", "main:ask2.txt"); got != "done" {
		t.Errorf("ask2.txt on the remote: %q", got)
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
