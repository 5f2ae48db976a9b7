package worker

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
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
func (w *worker) submoduleTrouble(r *run, e ending) (done bool, err error) {
	subs, err := r.wt.SubmoduleChanges(r.j.Base)
	if err != nil || len(subs) == 0 {
		return false, err
	}
	f := facts{What: landRefused, Prior: e, ID: r.t.ID, Target: r.j.Target, Reason: subNote, Paths: subs,
		Dir: r.wt.Path, Question: subQuestion(r, subs), Policy: w.policy(r.t)}
	if q := decision(r.t, isLandQuestion); q != nil && q.Context == held(f).Context {
		return false, r.wt.KeepSubmodulesAt(r.j.Base, subs) // answered: the rest goes as it is
	}
	return true, w.end(r, decideEnding(f))
}

// subQuestion asks what to do with work that changed files inside
// submodules.
func subQuestion(r *run, subs []string) task.Question {
	named := strings.Join(subs, "/, ") + "/"
	return task.Question{Header: landTitle, Type: task.ChoiceQuestion, Default: landKeep,
		Question: fmt.Sprintf("%s changed files inside submodule %s: bh does not land submodule changes "+
			"(their commits would live only in its worktree). They are kept in %s: commit and push them "+
			"in the submodule's own repository if you want them, then answer %q to land the rest without them, "+
			"or %q to keep the rest on branch %s.", r.t.ID, named, r.wt.Path, landNow, landKeep, r.j.Branch),
		Options: []task.Option{
			{Label: landNow, Description: "land the work outside " + named + " without the changes inside"},
			{Label: landKeep, Description: "keep the work outside " + named + " on branch " + r.j.Branch},
		}}
}
