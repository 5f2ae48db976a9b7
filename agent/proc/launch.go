package proc

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
	// Done, set by a launcher, ends what it started for the child (a
	// sandbox's network proxy) once the child is gone or failed to start.
	Done func()
}
