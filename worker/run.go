package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/repo"
	"github.com/google/uuid"
)

// run is one agent run on a claimed task: what apply needs to finish it.
type run struct {
	t       *task.Task
	base    *repo.Baseline
	prompt  string
	session string
	started time.Time
}

// work runs the agent on a claimed task and applies its result. Only
// trouble the worker cannot pin on the task (git, the file system) is
// returned; the task is then back to open or left to recovery.
func (w *worker) work(kill context.Context, t *task.Task) error {
	r := &run{t: t, started: time.Now()}
	v := verdict(t)
	resume := sessionRan(t)
	if !approved(v) {
		prompt, err := Prompt(w.s, t, resume)
		if err != nil {
			return w.release(t.ID, err)
		}
		r.prompt = prompt
	}
	var err error
	if r.base, err = w.repo.Baseline(); err != nil {
		return w.release(t.ID, fmt.Errorf("baseline: %w", err))
	}
	if err := saveBaseline(w.s, t.ID, r.base); err != nil {
		return w.release(t.ID, err)
	}
	// Restored partial work comes after the baseline, so it counts as the
	// agent's change: committed, rolled back or parked again with the rest.
	unparked, paths, err := w.unpark(t)
	var ce *repo.ConflictError
	if errors.As(err, &ce) {
		return w.conflict(r, ce)
	}
	if err != nil {
		return w.release(t.ID, err)
	}
	if approved(v) {
		return w.approve(r, v, unparked, paths)
	}
	if r.t, err = w.begin(t.ID, unparked, paths); errors.Is(err, errNotOurs) {
		r.t = t
		return w.lost(r, "", nil) // stopped before its agent could start
	} else if err != nil {
		return err
	}
	r.session = r.t.SessionID
	w.report(Event{Kind: Started, Task: t.ID, Title: t.Title, Resume: resume, Session: r.session})

	// The run ends early if a human takes the task back meanwhile (bh stop).
	ctx, cancel := context.WithCancel(kill)
	defer cancel()
	stopBeat := w.heartbeat(t.ID, cancel)
	out, runErr := w.runAgent(ctx, agent.Request{Prompt: r.prompt, Dir: w.s.Root, SessionID: r.session,
		Resume: resume, TaskID: t.ID, Env: w.opt.Env, Timeout: w.opt.Timeout})
	stopBeat()
	return w.apply(kill, r, out, runErr)
}

// runAgent runs the agent under the kill context and the worker's timeout.
func (w *worker) runAgent(kill context.Context, req agent.Request) (*agent.Outcome, error) {
	if w.opt.Timeout <= 0 {
		return w.runner.Run(kill, req)
	}
	ctx, cancel := context.WithTimeout(kill, w.opt.Timeout)
	defer cancel()
	out, err := w.runner.Run(ctx, req)
	if err != nil && kill.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		re := &agent.RunError{Reason: fmt.Sprintf("the agent timed out after %s", w.opt.Timeout), ExitCode: -1, Err: err}
		var inner *agent.RunError
		if errors.As(err, &inner) {
			re.Raw, re.Stderr = inner.Raw, inner.Stderr
		}
		err = re
	}
	return out, err
}

// begin gives the task its session (before the agent can create it) and
// records the start of the run.
func (w *worker) begin(id, unparked string, paths []string) (*task.Task, error) {
	t, err := w.s.Update(id, func(t *task.Task) error {
		if !w.owns(t) {
			return errNotOurs
		}
		at := w.now()
		recordUnparked(t, at, w.opt.Name, unparked, paths)
		if t.SessionID == "" {
			t.SessionID = uuid.NewString()
		}
		t.Agent = w.agent
		t.Record(at, task.Event{Kind: task.EventRunStarted, By: w.opt.Name, Session: t.SessionID})
		return nil
	})
	if errors.Is(err, errNotOurs) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", id, err)
	}
	return t, nil
}

// sessionRan reports whether the task's session was handed to an agent
// before, so that this run must resume it rather than create it.
func sessionRan(t *task.Task) bool {
	if t.SessionID == "" {
		return false
	}
	for _, e := range t.History {
		if (e.Kind == task.EventRunStarted || e.Kind == task.EventRunFinished) && e.Session == t.SessionID {
			return true
		}
	}
	return false
}

// release puts a claimed task back to open after trouble before its agent
// ran, and returns the trouble.
func (w *worker) release(id string, cause error) error {
	removeBaseline(w.s, id)
	_, err := w.s.Update(id, func(t *task.Task) error {
		if !w.owns(t) {
			return errNotOurs // a human took it back: theirs to decide
		}
		t.Lease = nil
		return t.SetState(task.Open, w.now(), w.opt.Name, "not started: "+cause.Error())
	})
	if err != nil {
		return fmt.Errorf("%s: %w (and releasing it: %v)", id, cause, err)
	}
	return fmt.Errorf("%s: %w", id, cause)
}
