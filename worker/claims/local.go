package claims

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// HandWorker names the lease of a task a human claimed. Such leases are
// never recovered automatically: only the human knows when they are done.
const HandWorker = "hand"

// ErrNothingReady means no task can be taken now.
var ErrNothingReady = errors.New("no task is ready")

// NotReadyError is a claim of a task that is not open or still waits on
// dependencies.
type NotReadyError struct {
	ID      string
	State   task.State
	Waiting []string // dependencies not closed yet (or missing)
	Settled string   // a hand claim of work a human's answer settled: what it is (see settled)
	// NotBefore is when a recurring task may be taken, still ahead.
	NotBefore time.Time
}

func (e *NotReadyError) Error() string {
	if e.Settled != "" {
		return fmt.Sprintf("%s holds %s, which lands without running the agent", e.ID, e.Settled)
	}
	if e.State != task.Open {
		return fmt.Sprintf("%s is %s, not open", e.ID, e.State)
	}
	if !e.NotBefore.IsZero() {
		return fmt.Sprintf("%s is not to run before %s", e.ID, e.NotBefore.Format(time.RFC3339))
	}
	return fmt.Sprintf("%s waits on %s", e.ID, strings.Join(e.Waiting, ", "))
}

// HandLease is the lease of `bh claim`: PID 0, so no worker ever mistakes
// it for one of its own.
func HandLease(now time.Time) task.Lease {
	l := WorkerLease(HandWorker, now)
	l.PID = 0
	return l
}

// WorkerLease is the lease a running worker puts on its task.
func WorkerLease(name string, now time.Time) task.Lease {
	now = now.UTC().Truncate(time.Second)
	return task.Lease{Worker: name, PID: os.Getpid(), Host: Hostname(), Heartbeat: now, StartedAt: now}
}

// Claim takes one task for the lease holder. Readiness is checked again on
// the freshly read file under the task's lock, so of two claimers (a human
// and a worker, or two processes) exactly one wins. settled says what
// work a human's answer settled on a task ("" for none; nil: none ever):
// a hand claim of such a task is refused.
func Claim(s *store.Store, id string, lease task.Lease, settled func(*task.Task) string) (*task.Task, error) {
	t, err := s.Update(id, func(t *task.Task) error {
		if err := ready(s, t); err != nil {
			return err
		}
		if lease.Worker == HandWorker && settled != nil { // not fresh work: the worker (or bh land) lands it
			if w := settled(t); w != "" {
				return &NotReadyError{ID: t.ID, State: t.State, Settled: w}
			}
		}
		if err := t.SetState(task.InProgress, now(s), lease.Worker, "claimed"); err != nil {
			return err
		}
		t.Lease = &lease
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("claim %s: %w", id, err)
	}
	return t, nil
}

// claimLocal claims the first ready task in queue order (priority, then
// age), passing over the tasks skip names. A task someone else claimed
// first is skipped; ErrNothingReady says none was left.
func claimLocal(s *store.Store, lease task.Lease, skip func(string) bool, settled func(*task.Task) string) (*task.Task, error) {
	tasks, _, err := s.List() // unreadable files are bh list's to report
	if err != nil {
		return nil, err
	}
	for _, c := range without(task.Ready(tasks, now(s)), skip) {
		t, err := Claim(s, c.ID, lease, settled)
		if _, ok := errors.AsType[*NotReadyError](err); ok {
			continue // lost the race, or changed since the listing
		}
		return t, err
	}
	return nil, ErrNothingReady
}

// ready checks t against the dependencies' current files.
func ready(s *store.Store, t *task.Task) error {
	if t.State != task.Open {
		return &NotReadyError{ID: t.ID, State: t.State}
	}
	if t.Waits(now(s)) {
		return &NotReadyError{ID: t.ID, State: t.State, NotBefore: *t.NotBefore}
	}
	var waiting []string
	for _, d := range t.DependsOn {
		dep, err := s.Get(d)
		if err != nil || !dep.Ended() {
			waiting = append(waiting, d)
		}
	}
	if len(waiting) > 0 {
		return &NotReadyError{ID: t.ID, State: t.State, Waiting: waiting}
	}
	return nil
}

func now(s *store.Store) time.Time {
	clock := s.Now
	if clock == nil {
		clock = time.Now
	}
	return clock().UTC().Truncate(time.Second)
}

// without is ready minus the tasks skip names.
func without(ready []*task.Task, skip func(string) bool) []*task.Task {
	if skip == nil {
		return ready
	}
	return slices.DeleteFunc(ready, func(t *task.Task) bool { return skip(t.ID) })
}
