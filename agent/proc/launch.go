package proc

import "os"

// Launcher turns a child's command line into the process that runs it:
// as it is (a nil Launcher), or inside a sandbox (package sandbox). It is
// the one seam every child bh runs for an agent goes through, so a
// container runner plugs in here without touching the run loop.
type Launcher interface {
	Launch(l Launch) (Launch, error)
}

// Launch is one child as Run would start it.
type Launch struct {
	Argv []string
	Env  []string // the child's whole environment
	Dir  string
	// Writable are more paths this child must write (its runner's own
	// temporary files), on top of what the launcher's policy allows.
	Writable []string
	Readable []string // paths this child must read, on top of the policy's
	Terminal bool     // the child reads bh's terminal
	// Files, set by a launcher, are more descriptors the child inherits,
	// as 3, 4 and on (a sandbox's seccomp program); Run closes them once
	// the child started or failed to.
	Files []*os.File
	// Limit, set by a launcher, says which of the limits it put on the
	// child (memory, processes, disk) the child passed, or "": Run asks
	// every second while the child runs, stopping one that passed a
	// limit, and once it is gone (final: a check it may skip while the
	// child runs, for its cost, it makes then).
	Limit func(final bool) string
	// Done, set by a launcher, ends what it started for the child (a
	// sandbox's network proxy) once the child is gone or failed to start.
	Done func()
}

// limit asks l.Limit, if set.
func (l *Launch) limit(final bool) string {
	if l.Limit == nil {
		return ""
	}
	return l.Limit(final)
}

// end closes what l's launcher opened for the child.
func (l *Launch) end() {
	for _, f := range l.Files {
		f.Close()
	}
	if l.Done != nil {
		l.Done()
	}
}

// Then is f then g, either of which may be nil: a launcher's Done on top
// of another's.
func Then(f, g func()) func() {
	return func() {
		for _, h := range []func(){f, g} {
			if h != nil {
				h()
			}
		}
	}
}
