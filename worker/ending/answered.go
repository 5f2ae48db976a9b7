package ending

import (
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/plan"
)

// What a human's answer settles, read from the task alone: the pure part
// of an answer, beside the decision it feeds (Decide). Work a task holds
// that has not landed ends only by landing it or by an explicit discard
// (task.MoveHolding): a human's answer that lands it (an approved gate,
// "land", "land anyway") is acted on by bh land at once, is not handed out
// as a fresh task by bh claim, and bh close refuses to close it away
// without --discard.

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
	if q == nil || q.Status != task.QuestionAnswered || len(q.Answer) == 0 ||
		since(t, q.ID, task.EventRunStarted, task.EventCommit) {
		return nil
	}
	return q
}

// since reports whether an event of one of kinds was recorded after
// question qid was answered.
func since(t *task.Task, qid string, kinds ...string) bool {
	answered := false
	for _, e := range t.History {
		answered = answered || e.Kind == task.EventInputReceived && e.QuestionID == qid
		if answered && slices.Contains(kinds, e.Kind) {
			return true
		}
	}
	return false
}

func approved(q *task.Question) bool { return q != nil && strings.EqualFold(q.Answer[0], "yes") }

// Feedback is what a reviewer's "no" asks the agent to change.
func Feedback(q *task.Question) string {
	if q == nil || approved(q) {
		return ""
	}
	if strings.TrimSpace(q.Comment) != "" {
		return q.Comment // as the reviewer wrote it (task.TrimAnswer)
	}
	if len(q.Comments) > 0 {
		return "See the reviewer's comments on lines of your change, with the answer above."
	}
	return "The reviewer gave no reason. Check the work against the task again and improve it."
}

// Settles are the facts of t's latest answer that settles it without the
// agent, if one does: the first of settlers that finds one. Its Branch is
// the run's to give.
func Settles(t *task.Task) (Facts, bool) {
	f := Facts{Session: t.SessionID, Summary: t.Summary}
	for _, s := range settlers {
		if q := Decision(t, s.asks); q != nil && s.settles(t, q) {
			f.What, f.By, f.Landing = s.what, answerer(t, q.ID), q.Answer[0]
			return f, true
		}
	}
	return f, false
}

// settlers are the questions whose answer settles a task without its
// agent, in the order they are looked at: which question (asks), which of
// its answers (settles), and what happened.
var settlers = []struct {
	what    Happening
	asks    func(*task.Question) bool
	settles func(*task.Task, *task.Question) bool
}{
	{HumanApproved, isGate, func(_ *task.Task, q *task.Question) bool { return approved(q) }},
	{HumanLanding, IsLandQuestion, func(*task.Task, *task.Question) bool { return true }},
	{HumanChecked, IsCheckQuestion, chose},
	// A budget's no settles it until a stop acted on it (before the task was reopened).
	{HumanBudget, IsBudgetQuestion, func(t *task.Task, q *task.Question) bool { return !approved(q) && !since(t, q.ID, task.EventStopped) }},
}

func isGate(q *task.Question) bool { return q.Gate }

// chose: q was answered with one of its options, not in words.
func chose(_ *task.Task, q *task.Question) bool { return q.Answer[0] != task.OtherChoice }

// BudgetRaised reports whether a human's yes to going on past t's budget
// waits to be acted on: its next run raises the budget (budget.Limit).
func BudgetRaised(t *task.Task) bool {
	return approved(Decision(t, IsBudgetQuestion))
}

func answerer(t *task.Task, qid string) string {
	if e, ok := t.LastAnswer(qid); ok && e.By != "" {
		return e.By
	}
	return "human"
}

// NextStep says what a worker does with t, answered and open again: the
// ending its answer settles (Ending.Next), else resuming the agent
// with the answer. branch is the task's (slots.Branch).
func NextStep(t *task.Task, branch string) string {
	if f, ok := Settles(t); ok {
		f.Branch = branch
		return Decide(f).Next
	}
	if BudgetRaised(t) {
		return "the worker will resume its session, free to spend as much again as its budget"
	}
	if plan.Fresh(t) {
		return "the worker will resume its session to carry out the plan as approved"
	}
	return "the worker will resume it with your answer"
}

// Settled is what a human's answer settles open task t with, in words
// ("approved work"), when the worker lands or keeps it without running
// the agent; "" when nothing is settled.
func Settled(t *task.Task) string {
	switch f, _ := Settles(t); f.What {
	case HumanApproved:
		return "approved work"
	case HumanLanding, HumanChecked:
		return "finished work answered " + f.Landing
	}
	return ""
}

// LandsSettled reports whether t's settled answer lands its work (rather
// than keeping it on its branch).
func LandsSettled(t *task.Task) bool {
	f, _ := Settles(t)
	return f.What == HumanApproved || f.What == HumanLanding && f.Landing == LandNow ||
		f.What == HumanChecked && f.Landing == CheckLand
}
