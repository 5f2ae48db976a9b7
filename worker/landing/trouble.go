// Package landing commits a finished task's work and delivers it: its
// checks, catching up with the target, landing on it (merge, rebase,
// branch) or a pull request and its shepherding. What stops a landing
// comes back as a *Trouble for the worker's ending table to decide on.
package landing

import (
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
)

// Kind is what stopped a landing.
type Kind int

const (
	Conflict     Kind = iota + 1 // the work does not rebase onto the target: Paths
	Refused                      // git would not land over the user's changes: Reason, Paths, Dir
	HookRefused                  // a commit hook refused the work: Hook
	CommitFailed                 // the commit failed otherwise: Err
	ChecksFailed                 // a check failed on the tree that would land: Checks, the last failed
	TakenBack                    // a human took the task back while its checks ran
)

// Trouble is a landing that stopped short, and why: the task's ending
// decides what becomes of it.
type Trouble struct {
	Kind        Kind
	Paths       []string
	Reason, Dir string
	Hook        *git.HookRefused
	Checks      []task.Event
	Err         error
}

func (t *Trouble) Error() string {
	if t.Err != nil {
		return t.Err.Error() // git's words, or the check's
	}
	return fmt.Sprintf("landing trouble %d", t.Kind)
}

func (t *Trouble) Unwrap() error { return t.Err }

// troubleOf is err as trouble when git said why it would not land: a
// rebase conflict or a refusal to overwrite the user's changes.
func troubleOf(err error) error {
	var rc *git.RebaseConflict
	var lr *git.LandRefused
	switch {
	case errors.As(err, &rc):
		return &Trouble{Kind: Conflict, Paths: rc.Paths, Err: err}
	case errors.As(err, &lr):
		return &Trouble{Kind: Refused, Reason: lr.Reason, Paths: lr.Paths, Dir: lr.Dir, Err: err}
	}
	return err
}
