package worker

import (
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/bh-tracker/bh/worker/slots"
)

// verdict is the task's latest approval question once answered, as long
// as nothing ran or was committed since the answer: the decision the
// worker has yet to act on. nil when there is none.
func verdict(t *task.Task) *task.Question {
	return decision(t, func(q *task.Question) bool { return q.Gate })
}

// decision is the latest question that match picks, once answered and not
// yet acted on (nothing ran or was committed since); nil when none is.
func decision(t *task.Task, match func(q *task.Question) bool) *task.Question {
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

// feedback is what a reviewer's "no" asks the agent to change.
func feedback(q *task.Question) string {
	if q == nil || approved(q) {
		return ""
	}
	if strings.TrimSpace(q.Comment) != "" {
		return q.Comment // as the reviewer wrote it (task.TrimAnswer)
	}
	return "The reviewer gave no reason. Check the work against the task again and improve it."
}

// decided is the ending a human's answer settles without running the
// agent: an approved gate lands the work; a landing decision lands it or
// keeps it on its branch.
func (w *worker) decided(r *run) (ending.Ending, bool) {
	r.session = r.t.SessionID
	f, ok := settles(r.t)
	if !ok {
		return ending.Ending{}, false
	}
	return ending.Decide(f), true
}

// settles are the facts of t's latest answer that settles it without the
// agent (decided), if one does.
func settles(t *task.Task) (ending.Facts, bool) {
	f := ending.Facts{Session: t.SessionID, Summary: t.Summary, Branch: slots.Branch(t.ID)}
	pick := func(what ending.Happening, q *task.Question) (ending.Facts, bool) {
		f.What, f.By, f.Landing = what, answerer(t, q.ID), q.Answer[0]
		return f, true
	}
	if q := verdict(t); approved(q) {
		return pick(ending.HumanApproved, q)
	}
	if q := decision(t, landing.IsLandQuestion); q != nil {
		return pick(ending.HumanLanding, q)
	}
	if q := decision(t, landing.IsCheckQuestion); q != nil && q.Answer[0] != task.OtherChoice {
		return pick(ending.HumanChecked, q)
	}
	if q := decision(t, isHookQuestion); q != nil && q.Answer[0] != task.OtherChoice {
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
func NextStep(t *task.Task) string {
	if f, ok := settles(t); ok {
		return ending.Decide(f).Next
	}
	return "the worker will resume it with your answer"
}
