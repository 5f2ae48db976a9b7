package outage

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/notify"
)

// Limits is when a worker may start runs after its agent's trouble: not
// before a backoff that doubles while an outage of unknown end lasts; not
// before the reset of its account's usage limit, whichever machine of the
// account met it (its Hold, shared as a ref); one at a time while the
// limit warns.
type Limits struct {
	Store  *store.Store
	Repo   *git.Repo
	Ref    string // HoldRef of the worker's agent and account
	Remote string // the shared remote; "" for none
	By     string
	Auto   bool // limits.autoResume
	Now    func() time.Time
	// Tell hears a pause begin or end, Send the notification of its end,
	// Warn what failed.
	Tell func(summary string, wait time.Duration)
	Send func(notify.Event)
	Warn func(format string, args ...any)

	mu      sync.Mutex
	backoff time.Duration
	until   time.Time
	warned  bool
	warnEnd time.Time // zero: until an allowed report
	held    *Hold     // the hold last seen, to tell when it ends
	told    string    // what was told of it
}

// NewLimits is the limits of the worker l.By of agentName's account that
// env's credentials name (over the process's), in s's repository r,
// sharing them through the config's remote, if any; l gives its callbacks.
func NewLimits(s *store.Store, r *git.Repo, agentName string, env []string, l *Limits) *Limits {
	l.Store, l.Repo, l.Ref, l.Remote, l.Auto = s, r, AccountRef(agentName, env), s.Config.Remote, AutoResume(s.Config)
	return l
}

// Backoff pauses new runs for a wait that starts at first and doubles up
// to most while the outage lasts (why), recorded for bh status; it
// returns the wait.
func (l *Limits) Backoff(first, most time.Duration, why string) time.Duration {
	l.mu.Lock()
	l.backoff = min(max(2*l.backoff, first), most)
	l.until = l.Now().Add(l.backoff)
	wait := l.backoff
	l.mu.Unlock()
	l.record(&Pause{Until: l.until.UTC(), Reason: why})
	return wait
}

// Back ends the backoff once a run got through.
func (l *Limits) Back() {
	l.mu.Lock()
	was := l.backoff != 0
	l.backoff, l.until = 0, time.Time{}
	l.mu.Unlock()
	if was {
		l.record(nil)
	}
}

func (l *Limits) record(p *Pause) {
	if err := Record(l.Store, PauseBackoff, p); err != nil {
		l.Warn("record the pause: %v", err)
	}
}

// Said takes a report of the limit as the CLI streams it: a warning makes
// runs go one at a time until its window resets, allowed ends that, and
// a rejection with its reset holds the account back (Hit).
func (l *Limits) Said(said agent.Limit) {
	l.mu.Lock()
	switch said.Status {
	case agent.LimitWarning:
		l.warned, l.warnEnd = true, said.ResetsAt
	case agent.LimitAllowed:
		l.warned = false
	}
	l.mu.Unlock()
	if h := HoldOf(&said, l.By, l.Now()); h != nil {
		l.Hit(*h)
	}
}

// Single reports whether runs go one at a time now.
func (l *Limits) Single() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.warned && (l.warnEnd.IsZero() || l.Now().Before(l.warnEnd))
}

// Hit keeps h as the account's hold and shares it at once with the
// remote, so that no other machine of the account tries.
func (l *Limits) Hit(h Hold) {
	err := Keep(l.Repo, l.Ref, h)
	if err == nil && l.Remote != "" {
		err = handOver(l.Repo, l.Remote, l.Ref)
	}
	if err != nil {
		l.Warn("share the usage limit's pause: %v", err)
	}
}

// Fetch brings the shared remote's holds, before a claim; one out of
// reach is the claims' to say.
func (l *Limits) Fetch() {
	if l.Remote != "" {
		_ = l.Repo.Fetch(l.Remote, LimitsRefspec)
	}
}

// Share pushes this machine's live holds to remote and drops the expired
// ones, here and there (after a sync).
func (l *Limits) Share(remote string) {
	if err := Share(l.Repo, remote, l.Now(), l.Auto); err != nil {
		l.Warn("share the usage limit's pause: %v", err)
	}
}

// Wait is how long new runs still wait now (recheck: past a reset that a
// human must resume). A hold that begins or ends since the last look is
// told, and its end notified (limit.resumed).
func (l *Limits) Wait(recheck time.Duration) time.Duration {
	now := l.Now()
	h := Held(l.Repo, l.Ref, now, l.Auto)
	l.mu.Lock()
	was, told := l.held, l.told
	l.held, l.told = h, ""
	if h != nil {
		l.told = h.Says(now)
	}
	wait := max(l.until.Sub(now), HeldWait(h, now, recheck), 0)
	l.mu.Unlock()
	switch {
	case h != nil && l.told != told:
		l.Tell(l.told, wait)
	case h == nil && was != nil:
		over := "the " + Window(was.Window) + " is over"
		l.Tell(over+": runs start again", 0)
		root := l.Store.Root
		l.Send(notify.Event{Name: task.EventLimitResumed, Summary: over, At: now, Repo: filepath.Base(root), RepoPath: root})
	}
	return wait
}

// HeldWait is how long hold h keeps new runs back at now: to its reset,
// or, past it without autoResume, until the next look (recheck).
func HeldWait(h *Hold, now time.Time, recheck time.Duration) time.Duration {
	if h == nil {
		return 0
	}
	if now.Before(h.ResetsAt) {
		return h.ResetsAt.Sub(now)
	}
	return recheck
}

// AutoResume is the config's limits.autoResume (default true).
func AutoResume(c config.Config) bool { return c.Limits.AutoResume == nil || *c.Limits.AutoResume }
