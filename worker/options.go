package worker

import (
	"cmp"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/notify"
)

// Options tune a worker. The zero value works: the agent comes from the
// store's config.
type Options struct {
	Runner agent.Runner     // nil: NewRunner(s.Config.Agent, MCP)
	MCP    *agent.MCPServer // bh's MCP server for claude; nil: jail.MCPCommand()
	Report func(Event)      // progress; nil discards it
	Once   bool             // work until no task is ready, then return
	Jobs   int              // how many agents run at once; default the config's workers, else 1
	Name   string           // the lease's worker name; default "worker"
	Env    []string         // extra environment for the agent
	// Timeout bounds each agent run on top of the runner's own limit, so
	// that even a runner that ignores its config cannot hang the worker.
	Timeout time.Duration

	Heartbeat time.Duration // how often the lease is renewed; default 15s
	LeaseTTL  time.Duration // a lease not renewed for this long is dead; default 2m
	Tick      time.Duration // idle re-check of leases and timeouts, besides file events; default 30s
	Backoff   time.Duration // the first wait after an agent outage such as an overloaded API; default 30s

	// Notify receives the worker's notifications. nil: Run builds one from
	// the config's notify: list (its delivery failures become Warning
	// events) and closes it on return; a given one is the caller's to close.
	Notify *notify.Notifier
	// GitLocks bounds how long one git step waits for a lock another git
	// process holds (0: git.DefaultLockBound); past it the run's ending
	// waits and is retried. GitHooks observe git steps (for tests).
	GitLocks time.Duration
	GitHooks git.Hooks
	// GH is the GitHub CLI (land: pr); default "gh" on PATH. ReviewPoll
	// is how often pull requests in review are polled (default 2m), and
	// ReviewRounds how many rounds of their feedback go back to the agent
	// before a human is asked (default the config's reviewRounds, else 3).
	GH           string
	ReviewPoll   time.Duration
	ReviewRounds int
	// Now is the worker's clock: what it records, and when questions
	// expire. nil: the store's clock. Tests set it to drive timeouts.
	Now func() time.Time
}

func (o *Options) defaults(c config.Config) {
	o.Jobs = orDefault(o.Jobs, max(c.Workers, 1))
	o.Name, o.GH = cmp.Or(o.Name, "worker"), cmp.Or(o.GH, "gh")
	o.LeaseTTL = orDefault(o.LeaseTTL, c.LeaseTTL())
	o.Heartbeat = orDefault(o.Heartbeat, min(15*time.Second, o.LeaseTTL/4))
	o.Backoff = orDefault(o.Backoff, defaultBackoff)
	o.ReviewPoll = orDefault(o.ReviewPoll, 2*time.Minute)
	o.ReviewRounds = orDefault(o.ReviewRounds, orDefault(c.ReviewRounds, 3))
	o.Tick = orDefault(o.Tick, 30*time.Second)
}

// orDefault is v when it is positive, else def.
func orDefault[T int | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// Backoff after an agent-wide outage that time may cure: the first wait,
// doubled after each outage in a row, up to the cap.
const (
	defaultBackoff = 30 * time.Second
	maxBackoff     = 15 * time.Minute
)
