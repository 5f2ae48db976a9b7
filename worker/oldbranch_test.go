package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/slots"
)

// A task whose branch outlived an earlier attempt (a kill, a released
// slot) starts where that branch forked, not at the target's tip of
// today: measured from the tip, everything committed since would count as
// the task's work, and landing it would undo the user's commits.
func TestKeptBranchKeepsItsForkPoint(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	writeFile(t, s.Root, "u.txt", "before\n")
	gitT(t, s.Root, "add", "u.txt")
	gitT(t, s.Root, "commit", "-q", "-m", "user's file")
	tk := addTask(t, s, "Writes task.txt")
	// Left by an earlier attempt, with a commit of the task's own.
	gitT(t, s.Root, "checkout", "-q", "-b", slots.Branch(tk.ID))
	writeFile(t, s.Root, "draft.txt", "draft\n")
	gitT(t, s.Root, "add", "draft.txt")
	gitT(t, s.Root, "commit", "-q", "-m", "an earlier attempt")
	gitT(t, s.Root, "checkout", "-q", "-")
	writeFile(t, s.Root, "u.txt", "after\n")
	gitT(t, s.Root, "commit", "-q", "-am", "the user's own commit, made since")

	runOnce(t, s, &fake{steps: []stepFn{step(map[string]string{"task.txt": "done\n"}, done("wrote it"))}})
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("state %s (%s)", got.State, lastNote(got))
	}
	if u := readFile(t, s.Root, "u.txt"); u != "after\n" {
		t.Errorf("u.txt = %q: the landing undid the user's commit", u)
	}
	files := gitT(t, s.Root, "show", "--name-only", "--format=", "HEAD")
	if strings.Contains(files, "u.txt") || !strings.Contains(files, "task.txt") {
		t.Errorf("the task's commit changes %q: want task.txt (and its task file) only", files)
	}
}

// A branch kept from an attempt cut short (its slot's record of the fork
// point gone) forked at the user's local commit, which a sync has since
// replayed onto the remote's: the merge-base with the target then lies
// before the user's commit, and measured from it the user's change would
// be parked (and later landed, undoing newer ones) as the task's work.
// git's reflog of the branch names where it forked.
func TestKeptBranchForkPointSurvivesARewrittenTarget(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	writeFile(t, s.Root, "u.txt", "v0\n")
	gitT(t, s.Root, "add", "u.txt")
	gitT(t, s.Root, "commit", "-q", "-m", "start")
	start := gitT(t, s.Root, "rev-parse", "HEAD")
	writeFile(t, s.Root, "u.txt", "v1\n")
	gitT(t, s.Root, "commit", "-q", "-am", "the user's commit, not pushed yet")
	mine := gitT(t, s.Root, "rev-parse", "HEAD")
	tk := addTask(t, s, "Drafts and asks")
	gitT(t, s.Root, "branch", slots.Branch(tk.ID)) // left by an attempt cut short
	// The sync: the remote moved, the user's commit is replayed onto it
	// (same tree, so the user's files stay as they are).
	theirs := gitT(t, s.Root, "commit-tree", start+"^{tree}", "-p", start, "-m", "the remote's commit")
	replayed := gitT(t, s.Root, "commit-tree", mine+"^{tree}", "-p", theirs, "-m", "the user's commit, replayed")
	gitT(t, s.Root, "update-ref", "refs/heads/"+gitT(t, s.Root, "symbolic-ref", "--short", "HEAD"), replayed, mine)

	ask := agent.Result{Status: agent.StatusNeedsInput, Summary: "drafted", Question: "Go ahead?"}
	runOnce(t, s, &fake{steps: []stepFn{step(map[string]string{"draft.txt": "draft\n"}, ask)}})
	got := getTask(t, s, tk.ID)
	e, ok := lastEvent(got, task.EventParked)
	if got.State != task.AwaitingInput || !ok {
		t.Fatalf("state %s, parked event %v (%s)", got.State, ok, lastNote(got))
	}
	if !strings.HasSuffix(e.Text, ": draft.txt") {
		t.Errorf("parked %q: want the task's draft.txt only", e.Text)
	}
}
