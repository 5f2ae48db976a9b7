package worker

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/budget"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/journal"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/bh-tracker/bh/worker/notify"
	"github.com/bh-tracker/bh/worker/outage"
	"github.com/bh-tracker/bh/worker/slots"
	"github.com/bh-tracker/bh/worker/watch"
)

// The worker's and one run's state, with the small helpers that only read
// it: the sink of the package's files, it uses none of the files above it.

type worker struct {
	s      *store.Store
	repo   *git.Repo
	runner agent.Runner // the config's agent; a task may run another (runnerFor)
	agent  string       // recorded on the task as who did the work
	opt    Options
	// stop ends bh's own steps in a task's worktree (setup, checks) and
	// recovery: the worker's stop, its first Ctrl-C or SIGTERM (a running
	// agent alone may finish), or bh land's context. They run again on
	// the next start.
	stop     context.Context
	notifier *notify.Notifier
	wt       *watch.Watcher
	claims   *claims.Remote // the shared remote's claims; nil without remote:
	kick     chan struct{}  // asks the syncer for a sync; nil without autoSync:
	reportMu sync.Mutex
	landMu   sync.Mutex // landings go one at a time
	home     landing.Home
	pool     slots.Pool // takes and gives back the worktree pool's slots
	mu       sync.Mutex // guards active, cooled, next and the outage state below
	active   map[string]bool
	cooled   map[string]bool // tasks a run failed on: not claimed again before the tick
	// After an agent-wide outage: no new claims until limits allow, or
	// none at all once fatal is set (the worker stops with it).
	limits *outage.Limits
	fatal  error
	day    budget.Day // budget.perDay's pause
	// next is the earliest expiry of a pending question known to the
	// worker; zero when none is.
	next time.Time
	// shepherded is when pull requests in review were last polled, and
	// shepherding whether a poll is under way.
	shepherded  time.Time
	shepherding atomic.Bool
	shepherds   sync.WaitGroup // the loop waits for a poll under way before it returns
}

// stopping is the worker's stop (see the field): Background where none
// was given (bh doctor's recovery, say).
func (w *worker) stopping() context.Context {
	if w.stop == nil {
		return context.Background()
	}
	return w.stop
}

func (w *worker) setActive(id string, on bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if on {
		w.active[id] = true
	} else {
		delete(w.active, id)
	}
}

func (w *worker) isActive(id string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.active[id]
}

// report hands e to Options.Report, one event at a time: notifier
// warnings arrive from other goroutines.
func (w *worker) report(e Event) {
	if w.opt.Report == nil {
		return
	}
	w.reportMu.Lock()
	defer w.reportMu.Unlock()
	w.opt.Report(e)
}

// warnf turns a notifier's delivery failure into a Warning event.
func (w *worker) warnf(format string, args ...any) {
	w.report(Event{Kind: Warning, Summary: fmt.Sprintf(format, args...)})
}

// clock is the worker's time, to the nanosecond: for expiry checks.
func (w *worker) clock() time.Time {
	if w.opt.Now != nil {
		return w.opt.Now().UTC()
	}
	if w.s.Now != nil {
		return w.s.Now().UTC()
	}
	return time.Now().UTC()
}

// now is the worker's time as tasks record it.
func (w *worker) now() time.Time { return w.clock().Truncate(time.Second) }

// lockLanding serializes landings: between this worker's runs, and with
// bh land run by hand (the file lock).
func (w *worker) lockLanding() (func(), error) {
	w.landMu.Lock()
	unlock, err := landing.Lock(w.s)
	if err != nil {
		w.landMu.Unlock()
		return nil, err
	}
	return func() { unlock(); w.landMu.Unlock() }, nil
}

// run is one agent run on a claimed task, in the task's worktree.
type run struct {
	t        *task.Task
	wt       *git.Worktree // nil once removed
	j        *journal.Journal
	prompt   string
	session  string
	restored string // the snapshot a recreated worktree was restored from
	head     string // the branch's tip when the agent started, to tell if it moved it
	started  time.Time
	runner   agent.Runner       // the agent this task runs with
	agent    string             // its name, recorded on the task
	cfg      config.AgentConfig // the config's agent as t's type and settings adjust it
	launch   proc.Launcher      // how its processes start: in the sandbox, or plainly (nil)
	sandbox  string             // how the run is confined, as its history records it
}

// dir is the agent's working directory: the worktree, or the directory
// inside it the task's settings name.
func (r *run) dir() string { return filepath.Join(r.wt.Path, r.cfg.Dir) }
