package proc

import (
	"slices"
	"sync/atomic"
)

// observer is told of every child as it starts (see Observe).
var observer atomic.Pointer[func([]string)]

// Observe has f told the command line of every child bh starts from now
// on, as it starts: through Run (a sandboxed child's line is the
// sandbox's, bwrap and its arguments) and the few started otherwise (see
// Starting; bh's git has its own, worker/git's Observe).
// It is how a test enumerates what bh runs outside a sandbox
// (agent/sandbox/THREATS.md lists it); stop ends it.
// f must be safe for concurrent use.
func Observe(f func(argv []string)) (stop func()) {
	observer.Store(&f)
	return func() { observer.Store(nil) }
}

// Starting tells the observer, if any, of a child about to start. Run
// calls it; so does whatever starts a child without Run (bubblewrap's
// probes).
func Starting(argv []string) {
	if f := observer.Load(); f != nil {
		(*f)(slices.Clone(argv))
	}
}
