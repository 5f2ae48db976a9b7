package landing

import (
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
)

// A human's answer that settles a task without running the agent again:
// an approved gate lands its work; a landing, checks or hook decision
// lands it or keeps it on its branch.

// Verdict is the task's latest approval question once answered, as long
// as nothing ran or was committed since the answer: the decision the
// worker has yet to act on. nil when there is none.
func Verdict(t *task.Task) *task.Question {
	return Decision(t, func(q *task.Question) bool { return q.Gate })
}

// Decision is the latest question that match picks, once answered and not
// yet acted on (nothing ran or was committed since); nil when none is.
func Decision(t *task.Task, match func(q *task.Question) bool) *task.Question {
	var q *task.Question
	for i := range t.Questions {
		if match(&t.Questions[i]) {
			q = &t.Questions[i]
		}
	}
	if q == nil || q.Status != task.QuestionAnswered || len(q.Answer) == 0 {
		return nil
	}
	answered := false
	for _, e := range t.History {
		switch {
		case e.Kind == task.EventInputReceived && e.QuestionID == q.ID:
			answered = true
		case answered && (e.Kind == task.EventRunStarted || e.Kind == task.EventCommit):
			return nil
		}
	}
	return q
}

// Approved reports whether an approval question was answered yes.
func Approved(q *task.Question) bool { return q != nil && strings.EqualFold(q.Answer[0], "yes") }

// Feedback is what a reviewer's "no" asks the agent to change.
func Feedback(q *task.Question) string {
	if q == nil || Approved(q) {
		return ""
	}
	if strings.TrimSpace(q.Comment) != "" {
		return q.Comment // as the reviewer wrote it (task.TrimAnswer)
	}
	return "The reviewer gave no reason. Check the work against the task again and improve it."
}

// Settles are the facts of t's latest answer that settles it without the
// agent, if one does; branch is where its work waits.
func Settles(t *task.Task, branch string) (ending.Facts, bool) {
	f := ending.Facts{Session: t.SessionID, Summary: t.Summary, Branch: branch}
	pick := func(what ending.Happening, q *task.Question) (ending.Facts, bool) {
		f.What, f.By, f.Landing = what, answerer(t, q.ID), q.Answer[0]
		return f, true
	}
	if q := Verdict(t); Approved(q) {
		return pick(ending.HumanApproved, q)
	}
	if q := Decision(t, IsLandQuestion); q != nil {
		return pick(ending.HumanLanding, q)
	}
	if q := Decision(t, IsCheckQuestion); q != nil && q.Answer[0] != task.OtherChoice {
		return pick(ending.HumanChecked, q)
	}
	if q := Decision(t, IsHookQuestion); q != nil && q.Answer[0] != task.OtherChoice {
		return pick(ending.HumanHooked, q)
	}
	return f, false
}

func answerer(t *task.Task, qid string) string {
	if e, ok := t.LastAnswer(qid); ok && e.By != "" {
		return e.By
	}
	return "human"
}

// NextStep says what a worker does with t, answered and open again: the
// ending its answer settles (ending.Ending.Next), else resuming the agent
// with the answer.
func NextStep(t *task.Task, branch string) string {
	if f, ok := Settles(t, branch); ok {
		return ending.Decide(f).Next
	}
	return "the worker will resume it with your answer"
}

// IsHookQuestion: q asks what to do with work a commit hook refused.
func IsHookQuestion(q *task.Question) bool {
	return q.Header == ending.HookTitle && q.Kind() == task.ChoiceQuestion
}

// Settled is what a human's answer settles open task t with, in words
// ("approved work"), when the worker lands or keeps it without running
// the agent; "" when nothing is settled.
func Settled(t *task.Task) string {
	if Approved(Verdict(t)) {
		return "approved work"
	}
	if q := Decision(t, IsLandQuestion); q != nil {
		return "finished work answered " + q.Answer[0]
	}
	if q := Decision(t, IsCheckQuestion); q != nil && q.Answer[0] != task.OtherChoice {
		return "finished work answered " + q.Answer[0]
	}
	return ""
}

// LandsSettled reports whether t's settled answer lands its work (rather
// than keeping it on its branch).
func LandsSettled(t *task.Task) bool {
	if Approved(Verdict(t)) {
		return true
	}
	if q := Decision(t, IsLandQuestion); q != nil {
		return q.Answer[0] == ending.LandNow
	}
	q := Decision(t, IsCheckQuestion)
	return q != nil && q.Answer[0] == ending.CheckLand
}
