package worker

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/gofrs/flock"
)

// Finding statuses: ok and fixed are healthy, warn and error are
// problems left for a human.
const (
	DoctorOK    = "ok"
	DoctorWarn  = "warn"
	DoctorError = "error"
	DoctorFixed = "fixed"
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
func (r Report) Problems() int { return r.Count(DoctorWarn) + r.Count(DoctorError) }

// doctor is one run of Doctor.
type doctor struct {
	*worker // its recovery, lease rules and claims: one copy of each
	fix     bool
	busy    *claims.Holder // a worker running here: its tasks, worktrees and claims are its own
	tasks   map[string]*task.Task
	list    []*task.Task
	broken  map[string]bool // ids whose file cannot be read: they exist
	remote  string          // "" without one
	online  bool            // the remote's refs were fetched
	theirs  string          // the remote's tip of the checked-out branch
	out     []Finding
}

// Doctor checks the store, leases, claims, parked work, worktrees, locks
// and temp files, and how this clone stands with the shared remote. With
// fix, it repairs what is safe to repair: what a running worker manages
// only while none runs here (Doctor then holds .bh/worker.lock).
func Doctor(s *store.Store, fix bool) (Report, error) {
	w, err := newDoctorWorker(s)
	if err != nil {
		return Report{}, err
	}
	d := &doctor{worker: w, fix: fix, broken: map[string]bool{}, tasks: map[string]*task.Task{}}
	d.checkNotLocks()
	if fix {
		unlock, err := claims.LockWorker(s.Dir, w.now())
		var busy *claims.BusyError
		switch {
		case errors.As(err, &busy):
			d.busy = &busy.Holder
		case err != nil:
			return Report{}, err
		default:
			defer unlock()
		}
	} else if d.busy, err = workerRunning(s.Dir); err != nil {
		return Report{}, err
	}
	// Worktrees go before parked refs: a worktree's changes count as saved
	// while its parked ref still holds them.
	// Git's own locks go before anything that runs git: a stale one fails it;
	// so do half-made worktrees, which fail git fetch and gc.
	for _, check := range []func() error{d.checkStore, d.checkConfig, d.checkSandbox, d.checkAgentStarts, d.checkGitLocks, d.checkHalfMade, d.connect,
		d.checkLeases, d.checkClaims,
		d.checkWorktrees, d.checkPool, d.checkParked, d.checkLocks, d.checkTaskState, d.checkRegistry} {
		if err := check(); err != nil {
			return Report{Findings: d.out}, err
		}
	}
	return Report{Findings: d.out}, nil
}

// newDoctorWorker is a worker that runs no agent: enough to recover.
func newDoctorWorker(s *store.Store) (*worker, error) {
	w := &worker{s: s, opt: Options{Name: "doctor"}, agent: "doctor", active: map[string]bool{}}
	w.opt.defaults(s.Config)
	r, err := git.Open(s.Root)
	if err != nil {
		return nil, err
	}
	w.repo = r
	if s.Config.Remote != "" {
		w.claims = openClaims(s, r, s.Config.Remote, w.opt.LeaseTTL, w.now, w.warnf)
	}
	return w, nil
}

// workerRunning is the holder of .bh/worker.lock, nil when none holds it.
func workerRunning(dir string) (*claims.Holder, error) {
	path := filepath.Join(dir, "worker.lock")
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil // no lock file: checkNotLocks says so
	}
	l := flock.New(path)
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("worker lock: %w", err)
	}
	if ok {
		l.Unlock()
		return nil, nil
	}
	h := claims.ReadHolder(path)
	return &h, nil
}

// found records a finding, and with --fix carries out repair first: a
// finding repaired becomes fixed, one whose repair failed says why.
func (d *doctor) found(f Finding, repair func() error) {
	f.Fixable = repair != nil
	if d.fix && repair != nil {
		if err := repair(); err != nil {
			f.Status, f.Message = DoctorError, f.Message+"; the fix failed: "+err.Error()
		} else {
			f.Status = DoctorFixed
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
	d.out = append(d.out, Finding{Check: check, Status: DoctorOK, Message: msg})
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
