package notify

import (
	"context"
	"fmt"
	"github.com/bh-tracker/bh/task"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bh-tracker/bh/task/config"
)

// DefaultTimeout bounds one delivery attempt when the config sets none.
const DefaultTimeout = 10 * time.Second

// sink is one target of one config entry, with its own queue and goroutine
// so a slow webhook never holds up a desktop popup.
type sink struct {
	name    string // for log lines; never holds a webhook's secret path
	all     bool
	events  []string
	deliver func(ctx context.Context, e Event) error
	queue   chan Event
	worst   time.Duration // one event's delivery at its slowest, retries included
	pending atomic.Int64  // events queued or in flight
}

// wants: a sink listening to input.requested hears budget.crossed too,
// which asks whether to go on. No sink wants a nameless event, "*" included.
func (s *sink) wants(name string) bool {
	return name != "" && s.all || slices.Contains(s.events, name) ||
		name == task.EventBudgetCrossed && slices.Contains(s.events, task.EventInputRequested)
}

// build turns the config entries into sinks, or says which entry is wrong.
func build(cfgs []config.NotifyConfig, n *Notifier) ([]*sink, error) {
	var sinks []*sink
	for i, c := range cfgs {
		s, err := buildEntry(c, n)
		if err != nil {
			return nil, fmt.Errorf("notify entry %d (%s): %w", i+1, describe(c), err)
		}
		sinks = append(sinks, s...)
	}
	return sinks, nil
}

// buildEntry makes an entry's sinks; the entry is checked as the
// config's load checks it (config.NotifyConfig.Check).
func buildEntry(c config.NotifyConfig, n *Notifier) ([]*sink, error) {
	if _, err := c.Check(); err != nil {
		return nil, err
	}
	timeout := c.Timeout.Or(DefaultTimeout)
	var out []*sink
	add := func(name string, deliver func(context.Context, Event) error, worst time.Duration) {
		out = append(out, &sink{
			name: name, all: slices.Contains(c.Events, task.AllEvents), events: c.Events,
			deliver: deliver, queue: make(chan Event, n.tune.queue), worst: worst,
		})
	}
	if strings.TrimSpace(c.Command) != "" {
		cmd := &command{line: c.Command, timeout: timeout}
		add("command "+short(c.Command), cmd.deliver, timeout+grace)
	}
	if c.Webhook != "" {
		u, _ := url.Parse(c.Webhook) // checked above
		target, shape := shapeFor(c.Format, u)
		w := &webhook{url: target, shape: shape, timeout: timeout, attempts: n.tune.attempts, backoff: n.tune.backoff}
		add(webhookName(u), w.deliver, w.worst())
	}
	if c.Desktop {
		d := &desktop{goos: runtime.GOOS, timeout: timeout, logf: n.logf}
		add("desktop", d.deliver, timeout+grace)
	}
	return out, nil
}

// describe names an entry in errors without printing a webhook's full URL,
// whose path is often a secret token.
func describe(c config.NotifyConfig) string {
	var parts []string
	if c.Command != "" {
		parts = append(parts, "command "+short(c.Command))
	}
	if c.Webhook != "" {
		if u, err := url.Parse(c.Webhook); err == nil && u.Host != "" {
			parts = append(parts, webhookName(u))
		} else {
			parts = append(parts, "webhook")
		}
	}
	if c.Desktop {
		parts = append(parts, "desktop")
	}
	if len(parts) == 0 {
		return "empty"
	}
	return strings.Join(parts, ", ")
}

// webhookName names a webhook by scheme and host only: its path is often a
// secret token.
func webhookName(u *url.URL) string { return "webhook " + u.Scheme + "://" + u.Host }

func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 40 {
		s = string(r[:39]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
