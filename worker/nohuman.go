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

// NoHumanSummary is the summary of a task that would have waited for a
// human, had its policy (human: false) allowed one.
const NoHumanSummary = "needed a human but none was allowed"

// noHuman fails a task whose agent asked a question (or whose completion
// needs approval) when no human may be asked. The work stays parked and
// the question is kept, flat and in the details, for whoever looks.
func (w *worker) noHuman(r *run, res agent.Result, commit string, paths []string, qs []task.Question, context string) error {
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Question
	}
	t, err := w.finish(r, func(t *task.Task, at time.Time) error {
		t.Summary, t.Details, t.Issues, t.Lease, t.SessionID = NoHumanSummary, noHumanDetails(res, texts, context),
			res.Issues, nil, r.session
		t.Question, t.QuestionContext = texts[0], context
		if res.Status != "" { // a conflict asks before any run
			w.recordRun(t, at, r, res)
		}
		recordParked(t, at, w.opt.Name, commit, paths)
		return t.SetState(task.Failed, at, w.opt.Name, NoHumanSummary+" (human: false)")
	})
	if errors.Is(err, errNotOurs) {
		return w.lost(r, commit, paths)
	}
	if err != nil {
		return fmt.Errorf("%s: %w (its work is parked under %s)", r.t.ID, err, ParkRef(r.t.ID))
	}
	removeBaseline(w.s, r.t.ID)
	w.notify(notify.EventTaskFailed, t)
	w.finished(r, Event{Outcome: Failed, Summary: NoHumanSummary, Question: texts[0], Questions: texts, Paths: paths})
	return nil
}

func noHumanDetails(res agent.Result, texts []string, context string) string {
	var b strings.Builder
	b.WriteString("The agent asked:\n")
	for _, q := range texts {
		fmt.Fprintf(&b, "- %s\n", q)
	}
	if context = strings.TrimSpace(context); context != "" {
		fmt.Fprintf(&b, "\n%s\n", context)
	}
	if s := strings.TrimSpace(res.Summary); s != "" {
		fmt.Fprintf(&b, "\nIts summary: %s\n", s)
	}
	if d := strings.TrimSpace(res.Details); d != "" {
		fmt.Fprintf(&b, "\n%s\n", d)
	}
	return strings.TrimRight(b.String(), "\n")
}
