package worker

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
)

// subNote is why work that changed files inside a submodule is not
// landed: its commits would live in the task's worktree alone, and bh
// cannot push them to the submodule's repository.
const subNote = "bh does not land changes inside a submodule"

// submoduleTrouble holds back work that changed files inside submodules
// (git.Worktree.SubmoduleChanges): the task waits with the landing
// question, its worktree (the changes in it) kept, instead of landing
// without them in silence. Once a human answered that question, the rest
// lands (or is kept) without them. done: the task ended here.
func (w *worker) submoduleTrouble(r *run, e ending.Ending) (done bool, err error) {
	subs, err := r.wt.SubmoduleChanges(r.j.Base)
	if err != nil || len(subs) == 0 {
		return false, err
	}
	f := ending.Facts{What: ending.LandRefused, Prior: e, ID: r.t.ID, Target: r.j.Target, Reason: subNote, Paths: subs,
		Dir: r.wt.Path, Question: subQuestion(r, subs), Policy: w.policy(r.t)}
	if q := decision(r.t, isLandQuestion); q != nil && q.Context == ending.Decide(f).Context {
		return false, r.wt.KeepSubmodulesAt(r.j.Base, subs) // answered: the rest goes as it is
	}
	return true, w.end(r, ending.Decide(f))
}

// subQuestion asks what to do with work that changed files inside
// submodules.
func subQuestion(r *run, subs []string) task.Question {
	named := strings.Join(subs, "/, ") + "/"
	return task.Question{Header: ending.LandTitle, Type: task.ChoiceQuestion, Default: ending.LandKeep,
		Question: fmt.Sprintf("%s changed files inside submodule %s: bh does not land submodule changes "+
			"(their commits would live only in its worktree). They are kept in %s: commit and push them "+
			"in the submodule's own repository if you want them, then answer %q to land the rest without them, "+
			"or %q to keep the rest on branch %s.", r.t.ID, named, r.wt.Path, ending.LandNow, ending.LandKeep, r.j.Branch),
		Options: []task.Option{
			{Label: ending.LandNow, Description: "land the work outside " + named + " without the changes inside"},
			{Label: ending.LandKeep, Description: "keep the work outside " + named + " on branch " + r.j.Branch},
		}}
}
