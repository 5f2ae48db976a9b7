package landing

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/usertree"
	"github.com/bh-tracker/bh/worker/slots"
)

// ErrNothingToLand means a task has no finished work waiting to land.
var ErrNothingToLand = errors.New("nothing to land")

// NotLandedError is a bh land that landed nothing, and why: git would not
// land over the user's changes (Files are theirs in the way), or the task
// has nothing waiting to land. The task is left as it was.
type NotLandedError struct {
	ID     string
	State  task.State
	Reason string
	Files  []string
	Err    error
}

func (e *NotLandedError) Error() string {
	msg := fmt.Sprintf("%s was not landed: %s", e.ID, e.Reason)
	if len(e.Files) > 0 {
		msg += ": " + strings.Join(e.Files, ", ")
	}
	return msg
}

func (e *NotLandedError) Unwrap() error { return e.Err }

// InTheWay is what would stop t's finished work, on its branch, from
// landing now on its target: a *NotLandedError naming the user's files in
// the way.
func InTheWay(s *store.Store, r *git.Repo, t *task.Task, targetOf func(*task.Task) (string, error)) error {
	head, err := r.BranchTip(slots.Branch(t.ID))
	if err != nil || head == "" {
		return err // no branch here: the run below finds the work or says why
	}
	target, err := targetOf(t)
	if err != nil {
		return err
	}
	err = usertree.Of(r).InTheWay(target, head, s.RelPath(t.ID))
	var lr *usertree.LandRefused
	if errors.As(err, &lr) {
		return &NotLandedError{ID: t.ID, State: t.State, Reason: "git would not land it on " + target + " in " + lr.Dir +
			": " + lr.Reason, Files: lr.Paths, Err: err}
	}
	return err
}

// KeptWork is the head of the work a closed task keeps on its branch,
// and the target it would land on; ErrNothingToLand when there is none,
// or it landed already.
func KeptWork(r *git.Repo, t *task.Task, targetOf func(*task.Task) (string, error)) (head, target string, err error) {
	if head, err = r.BranchTip(slots.Branch(t.ID)); err != nil {
		return "", "", err
	}
	if head == "" {
		return "", "", fmt.Errorf("%s has no branch %s: %w", t.ID, slots.Branch(t.ID), ErrNothingToLand)
	}
	if target, err = targetOf(t); err != nil {
		return "", "", err
	}
	if ok, err := r.Landed(target, head); err != nil || ok {
		if err == nil {
			err = fmt.Errorf("%s is already on %s: %w", slots.Branch(t.ID), target, ErrNothingToLand)
		}
		return "", "", err
	}
	return head, target, nil
}

// Unblocked lists the tasks of s that wait on a landing git refused over
// the user's uncommitted changes alone (not a submodule's, not a
// signature's), now that nothing of the user's stands in the way: the
// worker lands them (see Lands) as an answered "land" would, whatever
// their human policy.
func Unblocked(s *store.Store, r *git.Repo, targetOf func(*task.Task) (string, error)) []*task.Task {
	ts, _, err := s.ListBrief()
	if err != nil {
		return nil
	}
	var out []*task.Task
	for _, t := range ts {
		q := Pending(t)
		if t.State != task.AwaitingInput || q == nil || !strings.HasPrefix(q.Context, ending.RefusedContext) ||
			strings.Contains(q.Context, SubNote) {
			continue
		}
		if head, err := r.BranchTip(slots.Branch(t.ID)); err != nil || head == "" {
			continue // no work here to land: bh land says why
		}
		if full, err := s.Get(t.ID); err == nil && InTheWay(s, r, full, targetOf) == nil {
			out = append(out, full)
		}
	}
	return out
}
