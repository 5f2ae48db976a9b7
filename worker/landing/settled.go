package landing

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
)

// Work a task holds that has not landed ends only by landing it or by an
// explicit discard (task.MoveHolding): a human's answer that lands it
// (an approved gate, "land", "land anyway") is acted on by bh land at
// once, is not handed out as a fresh task by bh claim, and bh close
// refuses to close it away without --discard.

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
// agent, if one does.
func Settles(t *task.Task) (ending.Facts, bool) {
	f := ending.Facts{Session: t.SessionID, Summary: t.Summary, Branch: slots.Branch(t.ID)}
	pick := func(what ending.Happening, q *task.Question) (ending.Facts, bool) {
		f.What, f.By, f.Landing = what, answerer(t, q.ID), q.Answer[0]
		return f, true
	}
	if q := Verdict(t); approved(q) {
		return pick(ending.HumanApproved, q)
	}
	if q := Decision(t, IsLandQuestion); q != nil {
		return pick(ending.HumanLanding, q)
	}
	if q := Decision(t, IsCheckQuestion); q != nil && q.Answer[0] != task.OtherChoice {
		return pick(ending.HumanChecked, q)
	}
	if q := Decision(t, ending.IsBudgetQuestion); q != nil && !approved(q) && !stoppedSince(t, q.ID) {
		return pick(ending.HumanBudget, q)
	}
	return f, false
}

// stoppedSince: a stop was recorded since question qid was answered (a
// budget's no, acted on before the task was reopened).
func stoppedSince(t *task.Task, qid string) bool {
	answered := false
	for _, e := range t.History {
		answered = answered || e.Kind == task.EventInputReceived && e.QuestionID == qid
		if answered && e.Kind == task.EventStopped {
			return true
		}
	}
	return false
}

// BudgetRaised reports whether a human's yes to going on past t's budget
// waits to be acted on: its next run raises the budget (budget.Limit).
func BudgetRaised(t *task.Task) bool {
	return approved(Decision(t, ending.IsBudgetQuestion))
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
func NextStep(t *task.Task) string {
	if f, ok := Settles(t); ok {
		return ending.Decide(f).Next
	}
	if BudgetRaised(t) {
		return "the worker will resume its session, free to spend as much again as its budget"
	}
	return "the worker will resume it with your answer"
}

// Settled is what a human's answer settles open task t with, in words
// ("approved work"), when the worker lands or keeps it without running
// the agent; "" when nothing is settled.
func Settled(t *task.Task) string {
	if approved(Verdict(t)) {
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
	if approved(Verdict(t)) {
		return true
	}
	if q := Decision(t, IsLandQuestion); q != nil {
		return q.Answer[0] == ending.LandNow
	}
	q := Decision(t, IsCheckQuestion)
	return q != nil && q.Answer[0] == ending.CheckLand
}

// Unlanded is the work t holds that has not landed, in words ("" when
// none): finished work a human settled, waiting for the worker, or work
// parked under refs/bh/parked/<id>.
func Unlanded(s *store.Store, t *task.Task) (string, error) {
	if t.State == task.Open {
		if w := Settled(t); w != "" {
			return w, nil
		}
	}
	r, err := git.Open(s.Root)
	if err != nil {
		return "", err
	}
	commit, err := r.Ref(git.ParkRef(t.ID))
	if err != nil || commit == "" {
		return "", err
	}
	return fmt.Sprintf("parked work (%s)", commit[:min(10, len(commit))]), nil
}
