package budget

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/notify"
	"github.com/bh-tracker/bh/worker/outage"
)

// spentSince is what tasks' runs that finished since since cost in all, in USD.
func spentSince(tasks []*task.Task, since time.Time) float64 {
	sum := 0.0
	for _, t := range tasks {
		for _, e := range t.History {
			if e.Kind == task.EventRunFinished && !e.At.Before(since) {
				sum += e.CostUSD
			}
		}
	}
	return sum
}

// dayStart is the local midnight that begins now's day.
func dayStart(now time.Time) time.Time {
	y, m, d := now.Local().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.Local)
}

// Day holds a worker's new runs back once the day's runs cost
// budget.perDay: until local midnight, or until a human resumes the queue
// (bh worker --resume removes the pause's record), after which what ran
// before counts no more that day. Tell hears the pause begin and end, Send
// notifies its end (limit.resumed).
type Day struct {
	Tell func(summary string, wait time.Duration)
	Send func(notify.Event)

	mu     sync.Mutex
	until  time.Time // the pause in force; zero: none
	today  float64   // what the day's runs cost at the last look
	spent  float64   // what they had cost when a human last resumed
	resume time.Time // the midnight that began that day
	looked bool      // the mark an earlier worker left was read
}

// mark is what a worker leaves of the day's pause it began, so that a
// worker started after a resume (bh worker --resume) forgives the same.
type mark struct {
	Day   time.Time `json:"day"`   // the midnight that began the day
	Spent float64   `json:"spent"` // what the day's runs had cost
}

func markPath(s *store.Store) string { return s.Local("runs", "day.json") }

// recall takes the mark of today's pause an earlier worker left, once
// its pause is over (resumed): what it had seen spent counts no more.
func (d *Day) recall(s *store.Store, now time.Time) {
	d.looked = true
	b, err := os.ReadFile(markPath(s))
	var m mark
	if err == nil && json.Unmarshal(b, &m) == nil && m.Day.Equal(dayStart(now)) && outage.PausedNow(s, now, outage.PauseDay) == nil {
		d.spent, d.resume = m.Spent, m.Day
	}
}

// Check looks at the day's spend in s at now, before new runs start, and
// begins the pause, recorded for bh status, once perDay is reached.
func (d *Day) Check(s *store.Store, now time.Time) error {
	perDay := s.Config.Budget.PerDay
	if perDay <= 0 || d.Wait(s, now) > 0 {
		return nil
	}
	tasks, _, err := s.List() // unreadable tasks say so where they are listed
	if err != nil {
		return err
	}
	d.mu.Lock()
	if !d.looked {
		d.recall(s, now)
	}
	d.today = spentSince(tasks, dayStart(now))
	spent, total := d.today, d.today
	if d.resume.Equal(dayStart(now)) {
		spent -= d.spent
	}
	if spent < perDay {
		d.mu.Unlock()
		return nil
	}
	d.until = dayStart(now).AddDate(0, 0, 1)
	d.mu.Unlock()
	p := &outage.Pause{Until: d.until.UTC(),
		Reason: fmt.Sprintf("the day's budget: %s of %s spent", ending.USD(spent), ending.USD(perDay))}
	b, _ := json.Marshal(mark{dayStart(now), total})
	err = errors.Join(outage.Record(s, outage.PauseDay, p), os.WriteFile(markPath(s), b, 0o644))
	d.Tell(p.Reason+"; new runs wait until midnight (or bh worker --resume)", p.Until.Sub(now))
	return err
}

// Wait is how long new runs still wait at now: until midnight, unless a
// human resumed the queue meanwhile.
func (d *Day) Wait(s *store.Store, now time.Time) time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.until.IsZero() {
		return 0
	}
	resumed := outage.PausedNow(s, now, outage.PauseDay) == nil
	if now.Before(d.until) && !resumed {
		return d.until.Sub(now)
	}
	if resumed {
		d.spent, d.resume = d.today, dayStart(now)
	}
	d.until = time.Time{}
	d.Tell("the day's budget holds runs back no more: runs start again", 0)
	d.Send(notify.Event{Name: task.EventLimitResumed, Summary: "the day's budget holds runs back no more", At: now,
		Repo: filepath.Base(s.Root), RepoPath: s.Root})
	return 0
}
