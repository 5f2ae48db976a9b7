package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// A task whose branch outlived an earlier attempt (a kill, a released
// slot) starts where that branch forked, not at the target's tip of
// today: measured from the tip, everything committed since would count as
// the task's work, and landing it would undo the user's commits.
func TestKeptBranchKeepsItsForkPoint(t *testing.T) {
	s := newStore(t)
	writeFile(t, s.Root, "u.txt", "before\n")
	gitT(t, s.Root, "add", "u.txt")
	gitT(t, s.Root, "commit", "-q", "-m", "user's file")
	tk := addTask(t, s, "Writes task.txt")
	// Left by an earlier attempt, with a commit of the task's own.
	gitT(t, s.Root, "checkout", "-q", "-b", Branch(tk.ID))
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
