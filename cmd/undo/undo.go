// Package undo holds back an answer that lands work for a short window
// before it is recorded, so that the human can take it back, and decides
// which answers are held (or asked about first): the web's and the
// board's Undo.
package undo

import (
	"strings"
	"sync"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
)

// Window is how long an answer that lands work is held before it is
// recorded: the task file keeps waiting meanwhile, so no worker can land
// it, and Drop takes it back with nothing recorded.
const Window = 10 * time.Second

// Step is what an answer waits for before it is recorded.
type Step int

const (
	Record   Step = iota
	AskFirst      // a gate approved without its change opened: asked once
	AskWhy        // a gate rejected with no reason nor comment on a line: asked once
	HoldBack      // an answer that lands work: held for Window
)

// Decide is the one place that says so. A gate approved is asked about
// first unless its change was opened (reviewed) or the human confirmed; a
// gate rejected with no reason and no comment on a line (the agent would
// run again not knowing what to change) unless the human confirmed.
// The answers are tried on a fresh copy of task id: one that opens it for
// the worker to act on without the agent (ending.Settles: a gate
// approved, a landing decided) is held.
func Decide(st *store.Store, id string, ans []task.Answer, now time.Time, by string, reviewed, confirmed bool) Step {
	t, err := st.Get(id)
	if err != nil {
		return Record // the answer's door says why it is refused
	}
	if !reviewed && !confirmed && gateAnswer(t, ans, "yes") != nil {
		return AskFirst
	}
	if a := gateAnswer(t, ans, "no"); !confirmed && a != nil && strings.TrimSpace(a.Comment) == "" && len(a.Comments) == 0 {
		return AskWhy
	}
	if t.Answer(ans, now, by) != nil || t.State != task.Open {
		return Record
	}
	if _, ok := ending.Settles(t); ok {
		return HoldBack
	}
	return Record
}

// gateAnswer is the answer of ans that says v (yes or no) to a gate of t;
// nil when none does.
func gateAnswer(t *task.Task, ans []task.Answer, v string) *task.Answer {
	for i, a := range ans {
		for _, q := range t.OpenQuestions() {
			if q.Gate && q.ID == a.QuestionID && len(a.Values) == 1 && strings.EqualFold(strings.TrimSpace(a.Values[0]), v) {
				return &ans[i]
			}
		}
	}
	return nil
}

// Holds are the answers waiting out their window, by a key of the
// caller's (the task, and its repository where there are several).
type Holds struct {
	now       func() time.Time
	afterFunc func(time.Duration, func()) func() bool
	mu        sync.Mutex
	m         map[string]*held
}

// held is an answer waiting out its window; stop cancels its timer.
type held struct {
	until  time.Time
	stop   func() bool
	record func()
}

// New makes Holds that read the time with now and wait with afterFunc
// (time.AfterFunc's Stop when nil; a test's clock otherwise).
func New(now func() time.Time, afterFunc func(d time.Duration, f func()) (stop func() bool)) *Holds {
	if afterFunc == nil {
		afterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	return &Holds{now: now, afterFunc: afterFunc, m: map[string]*held{}}
}

// Hold keeps an answer back for Window, then records it (record: through
// the answer's one door, as any answer is); one held under key before is
// replaced.
func (hs *Holds) Hold(key string, record func()) {
	h := &held{until: hs.now().Add(Window), record: record}
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if old := hs.m[key]; old != nil {
		old.stop()
	}
	hs.m[key] = h
	h.stop = hs.afterFunc(Window, func() {
		if hs.release(key, h) {
			record()
		} // else undone or replaced meanwhile
	})
}

// release takes h out of the holds, unless it was undone or replaced.
func (hs *Holds) release(key string, h *held) bool {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.m[key] != h {
		return false
	}
	delete(hs.m, key)
	return true
}

// Until is when the answer held under key is recorded; zero when none is.
func (hs *Holds) Until(key string) time.Time {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if h := hs.m[key]; h != nil {
		return h.until
	}
	return time.Time{}
}

// Drop takes back the answer held under key: nothing is recorded. False
// when there was none left to take back (it was recorded already).
func (hs *Holds) Drop(key string) bool {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	h := hs.m[key]
	if h == nil {
		return false
	}
	delete(hs.m, key)
	h.stop()
	return true
}

// Flush records every answer held now, without waiting out its window:
// for a board that quits, which must not lose them.
func (hs *Holds) Flush() {
	hs.mu.Lock()
	var due []*held
	for key, h := range hs.m { // a timer that fired meanwhile finds its key gone: recorded here, once
		h.stop()
		due = append(due, h)
		delete(hs.m, key)
	}
	hs.mu.Unlock()
	for _, h := range due {
		h.record()
	}
}
