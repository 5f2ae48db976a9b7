package task

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// Schedule is when a recurring task (every: in its file) comes back: a
// fixed period (1w, 1d, 12h, 2w) or a cron line ("0 9 * * 1", @weekly).
type Schedule struct {
	period time.Duration
	cron   cron.Schedule
}

// ParseSchedule reads the every: of a task. Cron lines are read by
// robfig/cron (five fields, the @ descriptors, a CRON_TZ= prefix).
func ParseSchedule(s string) (Schedule, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Schedule{}, errors.New("an empty schedule: want a period such as 1w, or a cron line")
	}
	if d, ok := parsePeriod(s); ok {
		return Schedule{period: d}, nil
	}
	if f := strings.Fields(s); len(f) >= 5 || strings.HasPrefix(s, "@") || strings.Contains(f[0], "TZ=") {
		c, err := cron.ParseStandard(s)
		if err != nil {
			return Schedule{}, fmt.Errorf("%q is not a cron line: %v", s, err)
		}
		return Schedule{cron: c}, nil
	}
	return Schedule{}, fmt.Errorf("%q is not a schedule: want a period such as 1w, 1d, 12h or 2w, "+
		"or a cron line such as \"0 9 * * 1\"", s)
}

// CheckSchedule accepts a schedule, or nothing.
func CheckSchedule(s string) error {
	if s == "" {
		return nil
	}
	_, err := ParseSchedule(s)
	return err
}

// parsePeriod reads a count of m, h, d or w, at least a minute.
func parsePeriod(s string) (time.Duration, bool) {
	units := map[byte]time.Duration{'m': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour, 'w': 7 * 24 * time.Hour}
	if len(s) < 2 || units[s[len(s)-1]] == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n <= 0 || n > 1000 {
		return 0, false
	}
	return time.Duration(n) * units[s[len(s)-1]], true
}

// Next is the schedule's first time after now. A period counts from
// anchor (the previous time, to keep a weekly task on its weekday and
// hour) in whole periods; times missed while no worker ran are skipped, so
// that they make one task, not one per missed time. A cron line takes its
// next time after now, in now's location.
func (sc Schedule) Next(anchor, now time.Time) time.Time {
	if sc.cron != nil {
		return sc.cron.Next(now)
	}
	if anchor.IsZero() || anchor.After(now) {
		return now.Add(sc.period)
	}
	return anchor.Add(sc.period * (now.Sub(anchor)/sc.period + 1))
}

// Recur is the task that follows t, a recurring task that ended at now:
// the same work and settings, open, not to be taken before the schedule's
// next time, and linked to t by Follows. It is nil when t does not recur
// (or its schedule cannot be read). The store gives it its ID and history.
func (t *Task) Recur(now time.Time) *Task {
	sc, err := ParseSchedule(t.Every)
	if t.Every == "" || err != nil {
		return nil
	}
	anchor := t.CreatedAt
	if t.NotBefore != nil {
		anchor = *t.NotBefore
	}
	next := sc.Next(anchor, now).UTC()
	return &Task{Title: t.Title, Description: t.Description, Type: t.Type, Priority: t.Priority, Size: t.Size,
		Parent: t.Parent, DependsOn: t.DependsOn, Labels: t.Labels, AgentSettings: t.AgentSettings,
		Gate: t.Gate, Human: t.Human, HumanTimeout: t.HumanTimeout, OnTimeout: t.OnTimeout,
		Target: t.Target, Land: t.Land, Checks: t.Checks, Sandbox: t.Sandbox, Budget: t.Budget,
		Every: t.Every, NotBefore: &next, Follows: t.ID}
}

// Waits reports whether t is not to be taken yet at now (its NotBefore is
// still ahead).
func (t *Task) Waits(now time.Time) bool {
	return t.NotBefore != nil && now.Before(*t.NotBefore)
}

// Followers are the tasks that follow id (Follows: id).
func Followers(tasks []*Task, id string) []*Task {
	var out []*Task
	for _, t := range tasks {
		if t.Follows == id {
			out = append(out, t)
		}
	}
	return out
}

// StartAt is when a new task with schedule every first runs, made at
// now: at once for a period or no schedule (nil), at its first time after
// now for a cron line, whose times are the point of it.
func StartAt(every string, now time.Time) (*time.Time, error) {
	if every == "" {
		return nil, nil
	}
	sc, err := ParseSchedule(every)
	if err != nil || sc.cron == nil {
		return nil, err
	}
	at := sc.cron.Next(now).UTC()
	return &at, nil
}

// Soonest is the earliest time an open task waits for at now (zero if
// none): what is ready changes then.
func Soonest(tasks []*Task, now time.Time) time.Time {
	var at time.Time
	for _, t := range tasks {
		if t.State == Open && t.Waits(now) {
			at = Earliest(at, *t.NotBefore)
		}
	}
	return at
}

// Earliest is the earlier of a and b, a zero time counting as none.
func Earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}
