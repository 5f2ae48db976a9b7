package worker

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/notify"
)

// gate holds a completion for approval: nothing is committed, the work is
// parked (so it cannot leak into another task's commit) and the task asks
// one approval question. A yes commits it without running the agent again;
// a no resumes the session with the reviewer's feedback.
func (w *worker) gate(r *run, res agent.Result, p task.HumanPolicy, why string) error {
	paths, err := w.repo.Changed(r.base)
	if err != nil {
		return fmt.Errorf("%s: changes: %w", r.t.ID, err)
	}
	stat := ""
	if len(paths) > 0 {
		if stat, err = w.repo.DiffStat(r.base, paths); err != nil {
			return fmt.Errorf("%s: %w", r.t.ID, err)
		}
	}
	commit, paths, err := w.parkPaths(r, "awaiting approval", paths)
	if err != nil {
		return err
	}
	q := task.Question{Question: fmt.Sprintf("Approve and commit %s?", r.t.ID), Header: "Approval",
		Type: task.ApprovalQuestion, Gate: true}
	context := approvalContext(res.Summary, why, stat)
	if !p.Allowed {
		return w.noHuman(r, res, commit, paths, []task.Question{q}, context)
	}
	t, err := w.finish(r, func(t *task.Task, at time.Time) error {
		w.takeResult(t, at, r, res)
		recordParked(t, at, w.opt.Name, commit, paths)
		ask(t, at, []task.Question{q}, context, w.expiry(p, at))
		return t.SetState(task.AwaitingInput, at, w.opt.Name, "held for approval: "+why)
	})
	if errors.Is(err, errNotOurs) {
		return w.lost(r, commit, paths)
	}
	if err != nil {
		return fmt.Errorf("%s: %w (its work is parked under %s)", r.t.ID, err, ParkRef(r.t.ID))
	}
	removeBaseline(w.s, r.t.ID)
	w.notify(notify.EventInputRequested, t)
	w.finished(r, Event{Outcome: Gated, Summary: res.Summary, Question: q.Question, Questions: []string{q.Question},
		Paths: paths})
	return nil
}

// approvalContext is what the reviewer sees beside the question: the
// agent's summary, why the completion waits, and the diff stat.
func approvalContext(summary, why, stat string) string {
	parts := []string{}
	if s := strings.TrimSpace(summary); s != "" {
		parts = append(parts, s)
	}
	parts = append(parts, "Held for approval: "+why+".")
	if s := strings.TrimRight(stat, "\n"); strings.TrimSpace(s) != "" {
		parts = append(parts, s)
	} else {
		parts = append(parts, "(no file changes)")
	}
	return strings.Join(parts, "\n\n")
}

// verdict is the task's latest approval question once answered, as long
// as nothing ran or was committed since the answer: the decision the
// worker has yet to act on. nil when there is none.
func verdict(t *task.Task) *task.Question {
	var q *task.Question
	for i := range t.Questions {
		if t.Questions[i].Gate {
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
	if c := strings.TrimSpace(q.Comment); c != "" {
		return c
	}
	return "The reviewer gave no reason. Check the work against the task again and improve it."
}

// approve commits approved work: the parked work is already back in the
// tree (r's baseline predates it), and no agent runs.
func (w *worker) approve(r *run, q *task.Question, unparked string, paths []string) error {
	r.session = r.t.SessionID
	by := "human"
	if e, ok := lastAnswer(r.t, q.ID); ok && e.By != "" {
		by = e.By
	}
	return w.commit(r, "approved by "+by, func(t *task.Task, at time.Time) {
		recordUnparked(t, at, w.opt.Name, unparked, paths)
	})
}

func lastAnswer(t *task.Task, qid string) (task.Event, bool) {
	for i := len(t.History) - 1; i >= 0; i-- {
		if e := t.History[i]; e.Kind == task.EventInputReceived && e.QuestionID == qid {
			return e, true
		}
	}
	return task.Event{}, false
}
