package doctor

import (
	"errors"
	"strings"
	"testing"
)

// TestRepairs is how --fix treats a repair: carried out, failed, or left
// to the worker that runs here.
func TestRepairs(t *testing.T) {
	ran := 0
	ok := func() error { ran++; return nil }
	for _, c := range []struct {
		name     string
		fix      bool
		busy     *Holder
		repair   func() error
		guarded  bool
		status   string
		fixable  bool
		runs     int
		fixWords string
	}{
		{"reported only", false, nil, ok, false, Warn, true, 0, "remove it"},
		{"fixed", true, nil, ok, false, Fixed, true, 1, "remove it"},
		{"no repair", true, nil, nil, false, Warn, false, 0, "remove it"},
		{"failed", true, nil, func() error { return errors.New("no") }, false, Error, true, 0, "remove it"},
		{"a worker runs here", true, &Holder{PID: 7}, ok, true, Warn, false, 0, "not while the worker pid 7 runs here"},
		{"guarded, none runs", true, nil, ok, true, Fixed, true, 1, "remove it"},
	} {
		ran = 0
		d := &doctor{fix: c.fix, busy: c.busy}
		f := Finding{Check: "locks", Status: Warn, Message: "stray", Fix: "remove it."}
		if c.guarded {
			d.guarded(f, c.repair)
		} else {
			d.found(f, c.repair)
		}
		got := d.out[0]
		if got.Status != c.status || got.Fixable != c.fixable || ran != c.runs || !strings.Contains(got.Fix, c.fixWords) {
			t.Errorf("%s: %+v, the repair ran %d times", c.name, got, ran)
		}
		if c.status == Error && !strings.Contains(got.Message, "the fix failed: no") {
			t.Errorf("%s: %q", c.name, got.Message)
		}
	}
}
