package worker

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/slots"
)

const fixedCheck = "grep -q fixed file.txt"

func checkEvents(tk *task.Task) []task.Event {
	var out []task.Event
	for _, e := range tk.History {
		if e.Kind == task.EventCheck {
			out = append(out, e)
		}
	}
	return out
}

// A completion whose check fails goes back to the same session with the
// command, its status and its output; the next completion is checked
// again, passes and lands. Both rounds are in the history.
func TestCheckFailsResumesSessionThenLands(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Checks = []string{"true", fixedCheck + " || { echo 'file.txt: want fixed' >&2; exit 3; }"}
	tk := addTask(t, s, "Fixes file.txt")
	f := &fake{steps: []stepFn{
		step(map[string]string{"file.txt": "broken\n"}, done("wrote it")),
		step(map[string]string{"file.txt": "fixed\n"}, done("fixed it")),
	}}
	runWith(t, s, Options{Runner: f})
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed {
		t.Fatalf("state %s (%s), want closed", got.State, lastNote(got))
	}
	reqs := f.requests()
	if len(reqs) != 2 || !reqs[1].Resume || reqs[1].SessionID != reqs[0].SessionID {
		t.Fatalf("requests %+v, want a second one resuming the first's session", reqs)
	}
	for _, want := range []string{fixedCheck, "exited with status 3", "file.txt: want fixed", "round 1 of 3"} {
		if !strings.Contains(reqs[1].Prompt, want) {
			t.Errorf("resume prompt lacks %q:\n%s", want, reqs[1].Prompt)
		}
	}
	evs := checkEvents(got)
	if len(evs) != 4 || evs[1].ExitCode != 3 || evs[1].Round != 1 || evs[3].ExitCode != 0 || evs[3].Round != 2 {
		t.Fatalf("check events %+v, want round 1 failing and round 2 passing", evs)
	}
	if !strings.Contains(evs[1].Output, "want fixed") || evs[1].Command == "" {
		t.Errorf("failed check %+v lacks its command or output", evs[1])
	}
	if body := readFile(t, s.Root, "file.txt"); body != "fixed\n" {
		t.Errorf("landed file.txt %q", body)
	}
}

// A check that never passes asks the human after checkRounds rounds, with
// its output; "keep on branch" ends the task with the work on bh/<id>,
// nothing landed, and no further agent run. bh land then lands it as the
// question said, without running the checks the human knows fail.
func TestCheckNeverPassesKeepOnBranch(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Checks, s.Config.CheckRounds = []string{fixedCheck}, 2
	tk := addTask(t, s, "Never fixes file.txt")
	f := &fake{steps: []stepFn{
		step(map[string]string{"file.txt": "broken\n"}, done("wrote it")),
		step(map[string]string{"file.txt": "still broken\n"}, done("tried")),
	}}
	runWith(t, s, Options{Runner: f})
	got := getTask(t, s, tk.ID)
	q := pendingOf(t, got)
	if got.State != task.AwaitingInput || !ending.IsCheckQuestion(&q) || !strings.Contains(q.Context, "round 2 of 2") {
		t.Fatalf("%s waiting on %+v, want the checks question after round 2", got.State, q)
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q.ID, Values: []string{ending.CheckKeep}}}, "ann"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Runner: f})
	got = getTask(t, s, tk.ID)
	if got.State != task.Closed || len(f.requests()) != 2 {
		t.Fatalf("state %s after %d agent runs, want closed after 2", got.State, len(f.requests()))
	}
	if exists(s.Root, "file.txt") {
		t.Error("kept work landed on main")
	}
	if body := gitT(t, s.Root, "show", slots.Branch(tk.ID)+":file.txt"); body != "still broken" {
		t.Errorf("branch %s holds file.txt %q", slots.Branch(tk.ID), body)
	}
	checked := len(checkEvents(got))
	if err := landTask(context.Background(), s, tk.ID, "ann", Options{Name: "bh land"}); err != nil {
		t.Fatalf("bh land: %v", err)
	}
	if readFile(t, s.Root, "file.txt") != "still broken\n" || len(checkEvents(getTask(t, s, tk.ID))) != checked {
		t.Error("bh land did not land the kept work, or ran the checks the human decided on")
	}
}

// "land anyway" lands the work without running the checks again.
func TestCheckLandAnyway(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Checks, s.Config.CheckRounds = []string{fixedCheck}, 1
	tk := addTask(t, s, "Writes file.txt")
	f := &fake{steps: []stepFn{step(map[string]string{"file.txt": "broken\n"}, done("wrote it"))}}
	runWith(t, s, Options{Runner: f})
	q := pendingOf(t, getTask(t, s, tk.ID))
	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q.ID, Values: []string{ending.CheckLand}}}, "ann"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Runner: f})
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed || readFile(t, s.Root, "file.txt") != "broken\n" || len(checkEvents(got)) != 1 {
		t.Fatalf("state %s, %d check runs: want landed with the one failed run", got.State, len(checkEvents(got)))
	}
}

// When the target moves between the check and the landing, the branch is
// rebased and checked again on the new tree before it lands.
func TestCheckAgainWhenTargetMoves(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	mark := filepath.Join(t.TempDir(), "moved")
	// The first run of the check commits to main itself, as a human could;
	// a sandboxed check cannot reach main's tree, so this one runs plainly.
	s.Config.Sandbox.Mode = task.SandboxOff
	s.Config.Checks = []string{`test -e ` + mark + ` || { touch ` + mark + ` && echo x > "$BH_ROOT/moved.txt" && ` +
		`git -C "$BH_ROOT" add moved.txt && git -C "$BH_ROOT" commit -q -m moved; }`}
	tk := addTask(t, s, "Writes file.txt")
	f := &fake{steps: []stepFn{step(map[string]string{"file.txt": "fixed\n"}, done("wrote it"))}}
	runWith(t, s, Options{Runner: f})
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed {
		t.Fatalf("state %s (%s)", got.State, lastNote(got))
	}
	if evs := checkEvents(got); len(evs) != 2 || evs[0].Round != 1 || evs[1].Round != 1 {
		t.Fatalf("check events %+v, want two passing runs in round 1", evs)
	}
	if log := gitT(t, s.Root, "log", "--format=%s", "-2", "HEAD"); !strings.HasSuffix(log, "\nmoved") {
		t.Errorf("main's log %q: want the task landed on top of the human's commit", log)
	}
}

// Two tasks that each pass alone but break the check together, started
// from the same base: whichever lands second is checked on top of the
// first and sent back to its session; no commit on main ever fails.
func TestChecksTwoTasksBreakTogether(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Checks = []string{"! { test -f a.txt && test -f b.txt; }"}
	a, b := addTask(t, s, "Adds a.txt"), addTask(t, s, "Adds b.txt")
	var both sync.WaitGroup
	both.Add(2)
	ready := make(chan struct{})
	go func() { both.Wait(); close(ready) }()
	var mu sync.Mutex
	runs := map[string]int{}
	agentFn := func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		mu.Lock()
		runs[req.TaskID]++
		n := runs[req.TaskID]
		mu.Unlock()
		name := map[string]string{a.ID: "a", b.ID: "b"}[req.TaskID]
		if n == 1 { // both start from the same base before either lands
			both.Done()
			select {
			case <-ready:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return step(map[string]string{name + ".txt": "on\n"}, done("added "+name))(ctx, req)
		}
		if !strings.Contains(req.Prompt, "A check failed") {
			t.Errorf("%s run %d: prompt without the failed check:\n%s", req.TaskID, n, req.Prompt)
		}
		return step(map[string]string{name + ".txt": "", name + "2.txt": "on\n"}, done("moved "+name))(ctx, req)
	}
	f := &fake{}
	for range 3 {
		f.steps = append(f.steps, agentFn)
	}
	runWith(t, s, Options{Runner: f, Jobs: 2})
	sentBack := 0
	for _, id := range []string{a.ID, b.ID} {
		got := getTask(t, s, id)
		if got.State != task.Closed {
			t.Fatalf("%s: %s (%s)", id, got.State, lastNote(got))
		}
		for _, e := range checkEvents(got) {
			if e.ExitCode != 0 {
				sentBack++
			}
		}
	}
	if sentBack != 1 || len(f.requests()) != 3 {
		t.Fatalf("%d failed checks over %d runs, want the second landing sent back once", sentBack, len(f.requests()))
	}
	for _, c := range lines(gitT(t, s.Root, "rev-list", "HEAD")) {
		if gitOK(s.Root, "cat-file", "-e", c+":a.txt") && gitOK(s.Root, "cat-file", "-e", c+":b.txt") {
			t.Errorf("main's commit %s holds both a.txt and b.txt: a failing tree", c)
		}
	}
}

func gitOK(dir string, args ...string) bool {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	return cmd.Run() == nil
}

// Guidance (an "other" answer to the checks question) resumes the same
// session with the human's words and the failing output; the rounds start
// over, and the next completion is checked again.
func TestCheckGuidanceResumesSession(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Checks, s.Config.CheckRounds = []string{fixedCheck}, 1
	tk := addTask(t, s, "Writes file.txt")
	f := &fake{steps: []stepFn{
		step(map[string]string{"file.txt": "broken\n"}, done("wrote it")),
		step(map[string]string{"file.txt": "fixed\n"}, done("fixed it")),
	}}
	runWith(t, s, Options{Runner: f})
	q := pendingOf(t, getTask(t, s, tk.ID))
	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q.ID, Values: []string{task.OtherChoice},
		Comment: "write the word fixed"}}, "ann"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Runner: f})
	got, reqs := getTask(t, s, tk.ID), f.requests()
	if got.State != task.Closed || len(reqs) != 2 || !reqs[1].Resume || reqs[1].SessionID != reqs[0].SessionID {
		t.Fatalf("state %s after %d runs, want closed after the guided one resumed the session", got.State, len(reqs))
	}
	if p := reqs[1].Prompt; !strings.Contains(p, "write the word fixed") || !strings.Contains(p, fixedCheck) {
		t.Errorf("guided prompt lacks the guidance or the failing check:\n%s", p)
	}
	if evs := checkEvents(got); len(evs) != 2 || evs[1].Round != 1 || evs[1].ExitCode != 0 {
		t.Errorf("check events %+v, want the guided round counted from 1 again", evs)
	}
}
