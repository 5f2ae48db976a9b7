package worker

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/notify"
)

// A commit hook of the repository that refuses bh's commit is the
// repository's rule, not the agent's error: the task waits with the
// hook's output, and the human fixes the hook and lands, lands anyway
// (without the hooks), or sends the work back to the agent in words.
const (
	hookTitle = "Hook"
	hookLand  = "land"        // commit again, the hooks running: the human fixed the hook
	hookSkip  = "land anyway" // commit with --no-verify
)

func isHookQuestion(q *task.Question) bool {
	return q.Header == hookTitle && q.Kind() == task.ChoiceQuestion
}

// hookFacts are the facts of a landing whose commit a hook refused.
func hookFacts(r *run, e ending, hr *git.HookRefused, p task.HumanPolicy) facts {
	return facts{What: hookRefused, Prior: e, ID: r.t.ID, Target: r.j.Target, Branch: r.j.Branch,
		Session: r.session, Reason: strings.Join(hr.Hooks, " or "), Cause: hr.Output, Policy: p}
}

// hookHeld asks the human about finished work a commit hook refused.
func hookHeld(f facts) ending {
	e := f.Prior
	e.Outcome, e.Fate, e.State, e.Notify = HookRefused, keepWork, task.AwaitingInput, notify.EventInputRequested
	e.Note = fmt.Sprintf("the repository's %s hook refused the commit", f.Reason)
	e.Summary = e.Note + ": " + firstLineOf(f.Cause)
	e.Ask = []task.Question{{Header: hookTitle, Type: task.ChoiceQuestion, Default: hookLand,
		Question: fmt.Sprintf("The repository's %s hook refused to commit the work of %s. Fix the hook, land it anyway, "+
			"or send it back: answer in your own words (other) and the agent resumes with them.", f.Reason, f.ID),
		Options: []task.Option{
			{Label: hookLand, Description: "commit it again on " + f.Target + ", the hooks running (once you fixed the hook)"},
			{Label: hookSkip, Description: "commit it without the repository's hooks (git commit --no-verify)"},
		}}}
	e.Context = fmt.Sprintf("the repository's %s hook refused the commit:\n\n%s", f.Reason, f.Cause)
	return e
}
