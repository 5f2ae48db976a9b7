package landing

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// The answers to a landing question.
const (
	Now       = "land" // try again: the human committed or stashed what was in the way
	Keep      = "keep" // leave the work on its branch
	landTitle = "Land"
)

// IsLandQuestion reports whether q is a landing question.
func IsLandQuestion(q *task.Question) bool {
	return q.Header == landTitle && q.Kind() == task.ChoiceQuestion
}

// Question asks what to do with finished work that git would not land
// over the user's uncommitted changes.
func Question(id, target, branch string) task.Question {
	return task.Question{Header: landTitle, Type: task.ChoiceQuestion, Default: Keep,
		Question: fmt.Sprintf("%s is done, but landing it on %s would overwrite your uncommitted changes. "+
			"Commit or stash them and answer %q, or answer %q to leave the work on branch %s (bh land %s later).",
			id, target, Now, Keep, branch, id),
		Options: []task.Option{
			{Label: Now, Description: "land it now: your changes are committed or stashed"},
			{Label: Keep, Description: "keep it on branch " + branch + " for review"},
		}}
}

// Pending is t's landing question while it waits on it.
func Pending(t *task.Task) *task.Question {
	for i := range t.Questions {
		if q := &t.Questions[i]; IsLandQuestion(q) && q.Status == task.QuestionPending {
			return q
		}
	}
	return nil
}

// SubNote is why work that changed files inside a submodule is not
// landed: its commits would live in the task's worktree alone, and bh
// cannot push them to the submodule's repository.
const SubNote = "bh does not land changes inside a submodule"

// SubQuestion asks what to do with work that changed files inside
// submodules; dir is the worktree that keeps them.
func SubQuestion(id, branch, dir string, subs []string) task.Question {
	named := strings.Join(subs, "/, ") + "/"
	return task.Question{Header: landTitle, Type: task.ChoiceQuestion, Default: Keep,
		Question: fmt.Sprintf("%s changed files inside submodule %s: bh does not land submodule changes "+
			"(their commits would live only in its worktree). They are kept in %s: commit and push them "+
			"in the submodule's own repository if you want them, then answer %q to land the rest without them, "+
			"or %q to keep the rest on branch %s.", id, named, dir, Now, Keep, branch),
		Options: []task.Option{
			{Label: Now, Description: "land the work outside " + named + " without the changes inside"},
			{Label: Keep, Description: "keep the work outside " + named + " on branch " + branch},
		}}
}

// The answers to the checks question, besides guidance (an "other"
// choice, which resumes the session with the human's words).
const (
	CheckLand   = "land anyway"
	CheckKeep   = "keep on branch"
	checksTitle = "Checks"
)

// IsCheckQuestion reports whether q is the checks question.
func IsCheckQuestion(q *task.Question) bool {
	return q.Header == checksTitle && q.Kind() == task.ChoiceQuestion
}

// CheckQuestion asks the human what to do with work whose checks still
// fail after the agent's rounds (or which the agent gave up on).
func CheckQuestion(id, target, branch string) task.Question {
	return task.Question{Header: checksTitle, Type: task.ChoiceQuestion, Default: CheckKeep,
		Question: fmt.Sprintf("The checks of %s still fail on the tree that would land on %s. "+
			"Land it anyway, keep the work on branch %s, or answer in your own words (other) to guide the agent.",
			id, target, branch),
		Options: []task.Option{
			{Label: CheckLand, Description: "land it on " + target + " although the check fails"},
			{Label: CheckKeep, Description: "end the task, the work kept on branch " + branch + " (bh land " + id + " lands it)"},
		}}
}

// CheckContext is the failing check as the human sees it beside the question.
func CheckContext(ev task.Event, rounds int) string {
	return fmt.Sprintf("%s exited %d in round %d of %d:\n\n%s", ev.Command, ev.ExitCode, ev.Round, rounds, ev.Output)
}

func findQuestion(t *task.Task, id string) *task.Question {
	for i := range t.Questions {
		if t.Questions[i].ID == id {
			return &t.Questions[i]
		}
	}
	return nil
}
