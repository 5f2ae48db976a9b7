package ending

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// FailedCheck reads t's history for the check rounds under way: the last
// failed check, unless a landing or the checks question came after it
// (which start the rounds over), and whether an agent ran since.
func FailedCheck(t *task.Task) (failed *task.Event, ranSince bool) {
	for i := range t.History {
		switch ev := &t.History[i]; {
		case ev.Kind == task.EventCheck && ev.ExitCode != 0:
			failed, ranSince = ev, false
		case ev.Kind == task.EventCommit:
			failed = nil
		case ev.Kind == task.EventInputRequested && ev.QuestionID != "":
			if q := t.QuestionByID(ev.QuestionID); q != nil && IsCheckQuestion(q) {
				failed = nil
			}
		case ev.Kind == task.EventRunStarted:
			ranSince = true
		}
	}
	return failed, ranSince
}

// NextRound is the round the next checks of t are in: one past the last
// failed round, or the first.
func NextRound(t *task.Task) int {
	if ev, _ := FailedCheck(t); ev != nil {
		return ev.Round + 1
	}
	return 1
}

// ChecksAnswered reports whether a human answered t's checks question
// after its last check ran.
func ChecksAnswered(t *task.Task) bool {
	answered := false
	for _, ev := range t.History {
		switch {
		case ev.Kind == task.EventCheck:
			answered = false
		case ev.Kind == task.EventInputReceived && ev.QuestionID != "":
			if q := t.QuestionByID(ev.QuestionID); q != nil && IsCheckQuestion(q) {
				answered = true
			}
		}
	}
	return answered
}

// Failure says how a check ended: "passed", or how it failed.
func Failure(ev task.Event) string {
	switch ev.ExitCode {
	case 0:
		return "passed"
	case -1:
		return "was killed (it timed out, or a signal ended it)"
	}
	return fmt.Sprintf("failed with exit status %d", ev.ExitCode)
}

// CheckRound says where t's checks stand while a failed one is being
// fixed, such as "round 2 of 3 (round 1: go test ./... exited 1)"; ""
// when no check is failing.
func CheckRound(t *task.Task, rounds int) string {
	ev, _ := FailedCheck(t)
	asked := slices.ContainsFunc(t.Questions, func(q task.Question) bool {
		return IsCheckQuestion(&q) && q.Status == task.QuestionPending
	})
	for i := len(t.History) - 1; ev == nil && asked && i >= 0; i-- {
		if t.History[i].Kind == task.EventCheck {
			ev = &t.History[i] // the failed check the human is asked about
		}
	}
	if ev == nil {
		return ""
	}
	if asked {
		return fmt.Sprintf("round %d failed (%s exited %d): a human decides", ev.Round, ev.Command, ev.ExitCode)
	}
	return fmt.Sprintf("round %d of %d (round %d: %s exited %d)", ev.Round+1, rounds, ev.Round, ev.Command, ev.ExitCode)
}

// IsLandQuestion reports whether q is a landing question.
func IsLandQuestion(q *task.Question) bool {
	return q.Header == LandTitle && q.Kind() == task.ChoiceQuestion
}

// LandQuestion asks what to do with finished work that git would not land
// over the user's uncommitted changes.
func LandQuestion(id, target, branch string) task.Question {
	return task.Question{Header: LandTitle, Type: task.ChoiceQuestion, Default: LandKeep,
		Question: fmt.Sprintf("%s is done, but landing it on %s would overwrite your uncommitted changes. "+
			"Commit or stash them and answer %q, or answer %q to leave the work on branch %s (bh land %s later).",
			id, target, LandNow, LandKeep, branch, id),
		Options: []task.Option{
			{Label: LandNow, Description: "land it now: your changes are committed or stashed"},
			{Label: LandKeep, Description: "keep it on branch " + branch + " for review"},
		}}
}

// SignQuestion asks what to do with finished work whose commit git could
// not sign as the user's config asks.
func SignQuestion(id, target, branch string) task.Question {
	return task.Question{Header: LandTitle, Type: task.ChoiceQuestion, Default: LandKeep,
		Question: fmt.Sprintf("%s is done, but git could not sign its commit as your git config asks (commit.gpgsign). "+
			"Make your signing key usable and answer %q (or run bh land %s), or answer %q to leave the work on branch %s.",
			id, LandNow, id, LandKeep, branch),
		Options: []task.Option{
			{Label: LandNow, Description: "land it now on " + target + ": the key signs again"},
			{Label: LandKeep, Description: "keep it on branch " + branch + " for review"},
		}}
}

// PendingLand is t's landing question while it waits on it.
func PendingLand(t *task.Task) *task.Question {
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
	return task.Question{Header: LandTitle, Type: task.ChoiceQuestion, Default: LandKeep,
		Question: fmt.Sprintf("%s changed files inside submodule %s: bh does not land submodule changes "+
			"(their commits would live only in its worktree). They are kept in %s: commit and push them "+
			"in the submodule's own repository if you want them, then answer %q to land the rest without them, "+
			"or %q to keep the rest on branch %s.", id, named, dir, LandNow, LandKeep, branch),
		Options: []task.Option{
			{Label: LandNow, Description: "land the work outside " + named + " without the changes inside"},
			{Label: LandKeep, Description: "keep the work outside " + named + " on branch " + branch},
		}}
}

// IsCheckQuestion reports whether q is the checks question.
func IsCheckQuestion(q *task.Question) bool {
	return q.Header == ChecksTitle && q.Kind() == task.ChoiceQuestion
}

// PullRequest is the task's pull request (land: pr), "" if none, and
// the rounds of its feedback sent back to the agent since a human answered.
func PullRequest(t *task.Task) (url string, rounds int) { return t.PullRequest(), ReviewRounds(t) }

// ReviewRounds counts the rounds of feedback since a human last answered.
func ReviewRounds(t *task.Task) int {
	n := 0
	for _, e := range t.History {
		switch e.Kind {
		case task.EventFeedback:
			n++
		case task.EventInputReceived:
			n = 0
		}
	}
	return n
}

// PendingFeedback is the feedback a resumed run must address: the last
// round's, when no run started since; and the pull request's URL. Once a
// human answered about it (an escalation, whose question carries the
// feedback), the usual resume prompt gives both.
func PendingFeedback(t *task.Task) (text, url string) {
	for i := len(t.History) - 1; i >= 0; i-- {
		switch e := t.History[i]; e.Kind {
		case task.EventRunStarted, task.EventInputReceived:
			return "", ""
		case task.EventFeedback:
			return e.Text, t.PullRequest()
		}
	}
	return "", ""
}
