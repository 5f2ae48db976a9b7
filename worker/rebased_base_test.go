package worker

import (
	"context"
	"slices"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
)

// A sync rebases the local commits of the target onto the remote's, so a
// parked task's worktree can fork from a commit no longer on the target:
// the merge-base with it then lies further back, and every task landed in
// between looked like the parked task's own work (its parked diff listed
// them; its landing carried them again). The work is measured from the
// worktree's recorded fork point instead: kept (resumed in the same
// worktree) and moved (restored from the snapshot elsewhere, as another
// machine adopting it does).
func TestParkedWorkOutlivesARewrittenTarget(t *testing.T) {
	t.Parallel()
	for _, moved := range []bool{false, true} {
		name := map[bool]string{false: "kept", true: "moved"}[moved]
		t.Run(name, func(t *testing.T) { parkedAcrossARewrite(t, moved) })
	}
}

func parkedAcrossARewrite(t *testing.T, moved bool) {
	s := newStore(t)
	dir := s.Root
	other := addTask(t, s, "Land first")
	update(t, s, other.ID, func(tk *task.Task) { tk.Priority = "P0" })
	ask := addTask(t, s, "Ask twice")
	gitT(t, dir, "add", ".bh")
	gitT(t, dir, "commit", "-q", "-m", "tasks")
	asks := func(q string) agent.Result {
		r := agent.Result{Status: agent.StatusNeedsInput, Summary: "asking", Question: q}
		r.Questions = []agent.Question{{Question: q, Type: agent.QuestionFreeform}}
		return r
	}
	var sawDraft bool
	f := &fake{steps: []stepFn{
		step(map[string]string{"other.txt": "other\n"}, done("other landed")),
		step(map[string]string{"ask.draft": "draft\n"}, asks("Go ahead?")),
		func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
			sawDraft = exists(req.Dir, "ask.draft")
			return step(map[string]string{"ask.txt": "more\n"}, asks("Really?"))(ctx, req)
		},
		step(map[string]string{"ask.done": "done\n"}, done("asked and done")),
	}}
	runOnce(t, s, f)
	landedOther := gitT(t, dir, "rev-parse", "HEAD")
	if got := committed(t, dir, landedOther); !slices.Contains(got, "other.txt") {
		t.Fatalf("the other task's landing holds %v", got)
	}
	if getTask(t, s, ask.ID).State != task.AwaitingInput {
		t.Fatal("the asking task did not park")
	}
	if moved { // its worktree and branch gone: only the snapshot travels
		wt := slots.WorktreePath(s, mustRepo(t, s), ask.ID)
		gitT(t, dir, "worktree", "remove", "--force", wt)
		gitT(t, dir, "branch", "-D", slots.Branch(ask.ID))
	}

	// A sync: another machine's landing came first, the local ones are
	// replayed onto it, so the worktree's fork point is on no branch now.
	gitT(t, dir, "checkout", "-q", "-b", "remote", landedOther+"~1")
	writeFile(t, dir, "remote.txt", "from elsewhere\n")
	gitT(t, dir, "add", "remote.txt")
	gitT(t, dir, "commit", "-q", "-m", "another machine's task")
	gitT(t, dir, "cherry-pick", landedOther)
	gitT(t, dir, "checkout", "-q", "-B", "main", "remote")
	gitT(t, dir, "branch", "-D", "remote")

	answer := func() {
		t.Helper()
		if _, err := Respond(s, ask.ID, []task.Answer{{Values: []string{"yes"}}}, "alice"); err != nil {
			t.Fatal(err)
		}
	}
	answer()
	evs := finishedEvents(runOnce(t, s, f))
	if !sawDraft {
		t.Fatal("the resumed run lacks its parked draft")
	}
	if len(evs) != 1 || evs[0].Outcome != ending.NeedsInput || !slices.Equal(evs[0].Paths, []string{"ask.draft", "ask.txt"}) {
		t.Fatalf("parked again with %+v, want the task's own ask.draft and ask.txt only", evs)
	}
	snap := gitT(t, dir, "rev-parse", git.ParkRef(ask.ID))
	if got := lines(gitT(t, dir, "diff", "--name-only", snap+"^", snap)); !slices.Equal(got, []string{"ask.draft", "ask.txt"}) {
		t.Fatalf("the snapshot holds %v, want the task's own files only", got)
	}

	answer()
	runOnce(t, s, f)
	if getTask(t, s, ask.ID).State != task.Closed {
		t.Fatal("the task did not land")
	}
	want := []string{".bh/tasks/" + ask.ID + ".yaml", "ask.done", "ask.draft", "ask.txt"}
	if got := committed(t, dir, "HEAD"); !slices.Equal(got, want) {
		t.Fatalf("the landing holds %v, want %v", got, want)
	}
	for name, body := range map[string]string{"other.txt": "other\n", "remote.txt": "from elsewhere\n"} {
		if got := gitT(t, dir, "show", "HEAD:"+name); got+"\n" != body {
			t.Errorf("%s after the landing: %q, want %q", name, got, body)
		}
	}
	if n := gitT(t, dir, "rev-list", "--count", "--grep", "other landed", "HEAD"); n != "1" {
		t.Errorf("the other task's commit is on main %s times", n)
	}
}
