// Package notify delivers bh's notifications (the notify: list of
// .bh/config.yaml) to shell commands, webhooks and the desktop. Delivery
// happens in the background: a failing or slow notifier is logged and never
// holds up or stops the worker.
package notify

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bh-tracker/bh/task/config"
)

// Notifier fans events out to the configured targets. A nil *Notifier is
// valid and does nothing, so callers need not check whether any are set.
type Notifier struct {
	sinks []*sink
	tune  tuning

	logMu sync.Mutex
	log   func(format string, args ...any)

	mu      sync.RWMutex // guards closed against Send racing Close
	closed  bool
	dropped []string // what Close gave up on, guarded by logMu
	wg      sync.WaitGroup
	ctx     context.Context // cancelled when Close gives up waiting
	cancel  context.CancelFunc
}

// tuning holds knobs tests turn down; New uses the defaults.
type tuning struct {
	queue    int           // events waiting per target before Send drops
	attempts int           // webhook tries per event
	backoff  time.Duration // first wait between webhook tries, doubled after each
}

var defaults = tuning{queue: 64, attempts: 3, backoff: 500 * time.Millisecond}

// New checks cfgs and starts one delivery goroutine per target. Errors name
// the bad entry (1-based). logf receives every delivery failure; it is never
// called from two goroutines at once. A nil logf discards.
func New(cfgs []config.NotifyConfig, logf func(format string, args ...any)) (*Notifier, error) {
	return newNotifier(cfgs, logf, defaults)
}

func newNotifier(cfgs []config.NotifyConfig, logf func(string, ...any), tune tuning) (*Notifier, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	n := &Notifier{log: logf, tune: tune}
	sinks, err := build(cfgs, n)
	if err != nil {
		return nil, err
	}
	n.sinks = sinks
	n.ctx, n.cancel = context.WithCancel(context.Background())
	for _, s := range sinks {
		n.wg.Add(1)
		go n.run(s)
	}
	return n, nil
}

// logf serialises calls to the caller's logger.
func (n *Notifier) logf(format string, args ...any) {
	n.logMu.Lock()
	defer n.logMu.Unlock()
	n.log(format, args...)
}

// Send queues e for every target that listens to e.Name and returns at once.
// A target whose queue is full drops e with a log line. A zero e.At is
// stamped with the current time. Its text goes out through the one
// filter (Event.shown); an event without a name is no event, and goes
// nowhere.
func (n *Notifier) Send(e Event) {
	if n == nil || e.Name == "" {
		return
	}
	if e.At.IsZero() {
		e.At = time.Now().UTC()
	}
	e = e.shown()
	n.mu.RLock()
	defer n.mu.RUnlock()
	if n.closed {
		n.logf("notify: %s for %s after close, dropped", e.Name, e.TaskID)
		return
	}
	for _, s := range n.sinks {
		if !s.wants(e.Name) {
			continue
		}
		s.pending.Add(1)
		select {
		case s.queue <- e:
		default:
			s.pending.Add(-1)
			n.logf("notify: %s: queue full, dropped %s for %s", s.name, e.Name, e.TaskID)
		}
	}
}

// Wants says whether a target listens to the event name: the worker
// records a question as notified only when one does.
func (n *Notifier) Wants(name string) bool {
	return n != nil && slices.ContainsFunc(n.sinks, func(s *sink) bool { return s.wants(name) })
}

func (n *Notifier) run(s *sink) {
	defer n.wg.Done()
	for e := range s.queue {
		if n.ctx.Err() != nil {
			n.drop(s, e) // Close gave up
		} else if err := s.deliver(n.ctx, e); err != nil && n.ctx.Err() != nil {
			n.drop(s, e)
		} else if err != nil {
			n.logf("notify: %s: %s for %s: %v", s.name, e.Name, e.TaskID, err)
		}
		s.pending.Add(-1)
	}
}

func (n *Notifier) drop(s *sink, e Event) {
	n.logMu.Lock()
	defer n.logMu.Unlock()
	n.dropped = append(n.dropped, fmt.Sprintf("%s for %s (%s)", e.Name, e.TaskID, s.name))
}

// maxFlush caps how long Flush lets a stopping bh wait.
const maxFlush = 2 * time.Minute

// Flush is how many events are still queued or in flight, and how long
// delivering them may take at worst (each target's retry schedule for each
// of its events, targets in parallel; at least a second, at most maxFlush):
// the bound to give Close.
func (n *Notifier) Flush() (pending int, bound time.Duration) {
	if n == nil {
		return 0, 0
	}
	bound = time.Second
	for _, s := range n.sinks {
		p := s.pending.Load()
		pending += int(p)
		bound = max(bound, time.Duration(p)*s.worst)
	}
	return pending, min(bound, maxFlush)
}

// Close stops accepting events and waits for queued ones to be delivered.
// If ctx ends first, deliveries in flight are cancelled, the rest dropped,
// and Close returns an error naming each event that was not delivered.
func (n *Notifier) Close(ctx context.Context) error {
	if n == nil {
		return nil
	}
	n.mu.Lock()
	if !n.closed {
		n.closed = true
		for _, s := range n.sinks {
			close(s.queue)
		}
	}
	n.mu.Unlock()
	done := make(chan struct{})
	go func() { n.wg.Wait(); close(done) }()
	select {
	case <-done:
		n.cancel()
		return nil
	case <-ctx.Done():
	}
	n.cancel()
	select { // cancelled deliveries end within their grace
	case <-done:
	case <-time.After(2 * grace):
	}
	n.logMu.Lock()
	defer n.logMu.Unlock()
	what := "pending notifications"
	if len(n.dropped) > 0 {
		what = strings.Join(n.dropped, ", ")
	}
	return fmt.Errorf("notify: not delivered (%w): %s", context.Cause(ctx), what)
}
