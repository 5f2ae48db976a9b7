// Package doctor is bh doctor: findings about bh's state in a
// repository, and the repairs that are safe, over what the worker and
// the store export.
package doctor

import (
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/git"
)

// Finding statuses: ok and fixed are healthy, warn and error are
// problems left for a human.
const (
	OK    = "ok"
	Warn  = "warn"
	Error = "error"
	Fixed = "fixed"
)

// Finding is one thing bh doctor checked. Its field names are bh's
// interface.
type Finding struct {
	Check   string `json:"check"`             // store, leases, claims, deps, parked, worktrees, locks, state, remote
	Status  string `json:"status"`            // ok, warn, error or fixed
	Subject string `json:"subject,omitempty"` // the task, ref, file or path it is about
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"` // what --fix does (or did), else what a human must do
	Fixable bool   `json:"fixable"`       // bh doctor --fix repairs it
}

// Report is what bh doctor found, in the order it checked.
type Report struct {
	Findings []Finding `json:"findings"`
}

// Count counts the findings of a status.
func (r Report) Count(status string) int {
	n := 0
	for _, f := range r.Findings {
		if f.Status == status {
			n++
		}
	}
	return n
}

// Problems counts the findings left for a human.
func (r Report) Problems() int { return r.Count(Warn) + r.Count(Error) }

// Worker is what the doctor asks of bh's worker, so that the two keep
// one copy of each rule: its recovery, lease and config rules. The rest
// (worktrees, claims, bh's copies of the store) it reads from their packages.
// worker.ForDoctor fills it.
type Worker struct {
	Repo  *git.Repo
	Clock func() time.Time // the worker's time, for expiry

	LeaseTTL time.Duration // how long a claim holds without a heartbeat

	CheckConfig func() (hint string, err error) // what would make bh worker refuse to start, and what to do
	// AgentStarts calls each with every agent in use and why it cannot
	// start (not found, a broken release, the sandbox), nil when it can.
	AgentStarts func(each func(binary string, refused error)) error
	Dead        func(t *task.Task) bool // its lease's worker is gone, and no claim holds it elsewhere
	Recover     func() error            // the worker's recovery at start
	Journaled   func() ([]string, error)
}

// Holder is who holds the worker lock.
type Holder = claims.Holder

// doctor is one run of Run.
type doctor struct {
	Worker
	s      *store.Store
	repo   *git.Repo
	fix    bool
	busy   *Holder // a worker running here: its tasks, worktrees and claims are its own
	tasks  map[string]*task.Task
	list   []*task.Task
	broken map[string]bool // ids whose file cannot be read: they exist
	remote string          // "" without one
	online bool            // the remote's refs were fetched
	theirs string          // the remote's tip of the checked-out branch
	out    []Finding
}

// found records a finding, and with --fix carries out repair first: a
// finding repaired becomes fixed, one whose repair failed says why.
func (d *doctor) found(f Finding, repair func() error) {
	f.Fixable = repair != nil
	if d.fix && repair != nil {
		if err := repair(); err != nil {
			f.Status, f.Message = Error, f.Message+"; the fix failed: "+err.Error()
		} else {
			f.Status = Fixed
		}
	}
	d.out = append(d.out, f)
}

// guarded is found for a repair of what a running worker manages: while
// one runs here, it is left to the worker, or to a human who stops it.
func (d *doctor) guarded(f Finding, repair func() error) {
	if d.busy != nil && repair != nil {
		f.Fix = strings.TrimSuffix(f.Fix, ".") + fmt.Sprintf(" (not while the worker pid %d runs here: stop it, then bh doctor --fix)", d.busy.PID)
		repair = nil
	}
	d.found(f, repair)
}

func (d *doctor) ok(check, msg string) {
	d.out = append(d.out, Finding{Check: check, Status: OK, Message: msg})
}

// missing reports whether task id exists nowhere: not here (readable or
// not) and not on the remote's branch as last fetched, where another
// machine may have added it.
func (d *doctor) missing(id string) bool {
	if d.tasks[id] != nil || d.broken[id] {
		return false
	}
	if d.theirs != "" {
		if _, err := d.repo.FileAt(d.theirs, d.s.RelPath(id)); err == nil {
			return false
		}
	}
	return true
}

// closedOrMissing is a task whose leftovers (parked work, a worktree, a
// claim) nothing needs any more.
func (d *doctor) closedOrMissing(id string) (bool, string) {
	if t := d.tasks[id]; t != nil {
		return t.State == task.Closed, "the task is closed"
	}
	return d.missing(id), "the task no longer exists"
}

// rel is path as messages show it (store.Shown).
func (d *doctor) rel(path string) string { return d.s.Shown(path) }
