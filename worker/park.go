package worker

import (
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// ParkRef is where a task's partial work waits while the task does.
func ParkRef(id string) string { return "refs/bh/parked/" + id }

// parkWork snapshots the agent's changes under the task's ref and takes
// them out of the working tree, so they cannot leak into another task's
// commit. It returns the snapshot commit ("" when there was nothing).
func (w *worker) parkWork(r *run, why string) (string, []string, error) {
	paths, err := w.repo.Changed(r.base)
	if err != nil || len(paths) == 0 {
		return "", nil, err
	}
	commit, err := w.repo.Park(ParkRef(r.t.ID), r.base, paths, fmt.Sprintf("bh: %s %s\n\nbh-task: %s\n", r.t.ID, why, r.t.ID))
	if err != nil {
		return "", nil, fmt.Errorf("%s: park: %w", r.t.ID, err)
	}
	return commit, paths, nil
}

// park handles needs_input and blocked: the work is kept aside and the
// task waits for a human (an answer, or whatever unblocks it), to go on in
// the same agent session.
func (w *worker) park(r *run, res agent.Result, to task.State) error {
	commit, paths, err := w.parkWork(r, string(to))
	if err != nil {
		return err
	}
	var texts []string
	_, err = w.s.Update(r.t.ID, func(t *task.Task) error {
		at := now(w.s)
		t.Summary, t.Details, t.Issues, t.Lease, t.SessionID = res.Summary, res.Details, res.Issues, nil, r.session
		t.Record(at, task.Event{Kind: task.EventRunFinished, By: w.opt.Name, Status: string(res.Status),
			Session: r.session, Text: res.Summary})
		recordParked(t, at, w.opt.Name, commit, paths)
		if to == task.Blocked {
			texts = block(t, res)
		} else {
			texts = ask(t, at, res, w.expiry(t, at))
		}
		return t.SetState(to, at, w.opt.Name, res.Summary)
	})
	if err != nil {
		return fmt.Errorf("%s: %w (its work is parked under %s)", r.t.ID, err, ParkRef(r.t.ID))
	}
	removeBaseline(w.s, r.t.ID)
	outcome := NeedsInput
	if to == task.Blocked {
		outcome = Blocked
	}
	w.finished(r, Event{Outcome: outcome, Summary: res.Summary, Question: texts[0], Questions: texts, Paths: paths})
	return nil
}

// block records why the agent is blocked. It asks nothing: a human
// unblocks the task by reopening it.
func block(t *task.Task, res agent.Result) []string {
	why := res.Question
	if why == "" {
		why = res.Summary
	}
	t.Question, t.QuestionContext = why, res.QuestionContext
	return []string{why}
}

// ask makes the result's questions the task's pending ones. A result
// without any asks its summary, so that an answer always has a question.
func ask(t *task.Task, at time.Time, res agent.Result, expires *time.Time) []string {
	qs := res.Questions
	if len(qs) == 0 {
		text := res.Question
		if text == "" {
			text = res.Summary
		}
		if text == "" {
			text = "The agent stopped without saying why. How should it go on?"
		}
		qs = []agent.Question{{Question: text, Type: agent.QuestionFreeform}}
	}
	t.Question, t.QuestionContext = qs[0].Question, res.QuestionContext
	if res.Question != "" {
		t.Question = res.Question
	}
	t.HumanResponse, t.HumanRespondedAt = "", nil
	texts := make([]string, len(qs))
	for i, q := range qs {
		tq := task.Question{ID: newQuestionID(t), Question: q.Question, Header: q.Header, Type: q.Type,
			MultiSelect: q.MultiSelect, Default: q.Default, Context: res.QuestionContext,
			Status: task.QuestionPending, AskedAt: at, ExpiresAt: expires}
		for _, o := range q.Options {
			tq.Options = append(tq.Options, task.Option{Label: o.Label, Description: o.Description})
		}
		t.Questions = append(t.Questions, tq)
		t.Record(at, task.Event{Kind: task.EventInputRequested, QuestionID: tq.ID, Text: q.Question,
			Context: res.QuestionContext})
		texts[i] = q.Question
	}
	return texts
}

func recordParked(t *task.Task, at time.Time, by, commit string, paths []string) {
	if commit != "" {
		t.Record(at, task.Event{Kind: task.EventParked, By: by, Commit: commit,
			Text: ParkRef(t.ID) + ": " + strings.Join(paths, ", ")})
	}
}

// agentError fails the task when the agent itself went wrong (crash,
// garbage, timeout): its partial work is parked, not thrown away, and the
// worker goes on with the next task.
func (w *worker) agentError(r *run, cause error, logPath string) error {
	commit, paths, err := w.parkWork(r, "agent error")
	if err != nil {
		return err
	}
	why := reason(cause)
	_, err = w.s.Update(r.t.ID, func(t *task.Task) error {
		at := now(w.s)
		t.Summary, t.Lease, t.SessionID = "agent error: "+why, nil, r.session
		if logPath != "" {
			t.Details = "run log: " + logPath
		}
		t.Record(at, task.Event{Kind: task.EventRunFinished, By: w.opt.Name, Status: string(AgentError),
			Session: r.session, Text: why})
		recordParked(t, at, w.opt.Name, commit, paths)
		return t.SetState(task.Failed, at, w.opt.Name, "agent error: "+why)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", r.t.ID, err)
	}
	removeBaseline(w.s, r.t.ID)
	w.finished(r, Event{Outcome: AgentError, Summary: why, Paths: paths, Err: cause})
	return nil
}

// stop handles an agent the kill context stopped: the work is parked and
// the task goes back to open, to resume its session on the next start.
func (w *worker) stop(r *run, cause error) error {
	commit, paths, err := w.parkWork(r, "stopped")
	if err != nil {
		return err // the task stays in progress: the next start recovers it
	}
	_, err = w.s.Update(r.t.ID, func(t *task.Task) error {
		at := now(w.s)
		t.Lease, t.SessionID = nil, r.session
		t.Record(at, task.Event{Kind: task.EventRunFinished, By: w.opt.Name, Status: string(Stopped), Session: r.session})
		t.Record(at, task.Event{Kind: task.EventStopped, By: w.opt.Name, Text: reason(cause)})
		recordParked(t, at, w.opt.Name, commit, paths)
		return t.SetState(task.Open, at, w.opt.Name, "stopped; resumes on the next start")
	})
	if err != nil {
		return fmt.Errorf("%s: %w", r.t.ID, err)
	}
	removeBaseline(w.s, r.t.ID)
	w.finished(r, Event{Outcome: Stopped, Paths: paths})
	return nil
}
