package web

import (
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/attempts"
	"github.com/bh-tracker/bh/worker/git"
)

// attemptView is one attempt of a task tried side by side, with its diff,
// as the task's page shows it beside the others for the pick.
type attemptView struct {
	K           int
	ID, Summary string
	Files       []git.FileDiff
	Cut         bool
}

// attemptViews are t's attempts side by side; none for a task not tried so.
func attemptViews(st *store.Store, t *task.Task) []attemptView {
	if !t.Tried() {
		return nil
	}
	r, err := git.Open(st.Root)
	if err != nil {
		return nil
	}
	as, _ := attempts.Of(st, t)
	out := make([]attemptView, 0, len(as))
	for _, a := range as {
		v := attemptView{K: a.Attempt, ID: a.ID, Summary: a.Summary}
		if sh, err := attempts.Show(st, r, t, a.Attempt, false); err == nil {
			v.Files, v.Cut = git.DiffFiles(sh.Diff)
			v.Files = slices.DeleteFunc(v.Files, func(f git.FileDiff) bool { return strings.HasPrefix(f.Name, ".bh/") })
		}
		out = append(out, v)
	}
	return out
}
