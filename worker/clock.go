package worker

import "time"

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

// armExpiry sets the timer to fire at the next known expiry, if any.
func (w *worker) armExpiry(t *time.Timer) {
	t.Stop()
	w.mu.Lock()
	next := w.next
	w.mu.Unlock()
	if !next.IsZero() {
		t.Reset(max(next.Sub(w.clock()), 0))
	}
}
