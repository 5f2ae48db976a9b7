package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
	resume := sessionRan(t)
	prompt, err := Prompt(w.s, t, resume)
	if err != nil {
		return w.release(t.ID, err)
	}
	r.prompt = prompt
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
	if r.t, err = w.begin(t.ID, unparked, paths); err != nil {
		return err
	}
	r.session = r.t.SessionID
	w.report(Event{Kind: Started, Task: t.ID, Title: t.Title, Resume: resume, Session: r.session})

	stopBeat := w.heartbeat(t.ID)
	out, runErr := w.runner.Run(kill, agent.Request{Prompt: prompt, Dir: w.s.Root, SessionID: r.session,
		Resume: resume, TaskID: t.ID, Env: w.opt.Env})
	stopBeat()
	return w.apply(kill, r, out, runErr)
}

// begin gives the task its session (before the agent can create it) and
// records the start of the run.
func (w *worker) begin(id, unparked string, paths []string) (*task.Task, error) {
	t, err := w.s.Update(id, func(t *task.Task) error {
		at := now(w.s)
		if unparked != "" {
			t.Record(at, task.Event{Kind: task.EventUnparked, By: w.opt.Name, Commit: unparked,
				Text: "restored " + strings.Join(paths, ", ")})
		}
		if t.SessionID == "" {
			t.SessionID = uuid.NewString()
		}
		t.Agent = w.agent
		t.Record(at, task.Event{Kind: task.EventRunStarted, By: w.opt.Name, Session: t.SessionID})
		return nil
	})
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

// unpark restores the task's parked work, if any, into the working tree.
func (w *worker) unpark(t *task.Task) (commit string, paths []string, err error) {
	ref := ParkRef(t.ID)
	info, err := w.repo.Parked(ref)
	if err != nil || info == nil {
		return "", nil, err
	}
	paths, err = w.repo.Unpark(ref)
	if err != nil {
		return "", nil, err
	}
	return info.Commit, paths, nil
}

// release puts a claimed task back to open after trouble before its agent
// ran, and returns the trouble.
func (w *worker) release(id string, cause error) error {
	removeBaseline(w.s, id)
	_, err := w.s.Update(id, func(t *task.Task) error {
		t.Lease = nil
		return t.SetState(task.Open, now(w.s), w.opt.Name, "not started: "+cause.Error())
	})
	if err != nil {
		return fmt.Errorf("%s: %w (and releasing it: %v)", id, cause, err)
	}
	return fmt.Errorf("%s: %w", id, cause)
}

// heartbeat renews the lease until the returned func is called.
func (w *worker) heartbeat(id string) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(w.opt.Heartbeat)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				w.s.Update(id, func(t *task.Task) error {
					if !w.owns(t) {
						return errNotOurs
					}
					t.Lease.Heartbeat = now(w.s)
					return nil
				})
			}
		}
	}()
	return func() { close(done); <-finished }
}

var errNotOurs = errors.New("lease taken over")

// owns reports whether t is in progress under this process's lease.
func (w *worker) owns(t *task.Task) bool {
	l := t.Lease
	return t.State == task.InProgress && l != nil && l.Worker == w.opt.Name && l.PID == pidSelf && l.Host == hostname()
}
