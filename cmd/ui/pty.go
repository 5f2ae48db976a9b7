package ui

import (
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/creack/pty"
	"github.com/muesli/cancelreader"
	"golang.org/x/term"
)

// drainPTY bounds how long detaching waits for the session's last output,
// in case something the session left behind still holds its terminal.
const drainPTY = 2 * time.Second

// AttachPTY opens a pseudo-terminal of bh's own for a child that draws
// on a terminal (a taken-over agent session) and relays between it and
// the user's: keys from In go in, the child's output comes out on
// Terminal, the window's size follows the user's, and the user's
// terminal is raw meanwhile (the child's own terminal interprets the
// keys). The child gets tty, never the user's terminal: what it does to
// its terminal (TIOCSTI, a mode) stays there. detach, once the child is
// gone, stops the relay and gives the user's terminal back as it was.
func (s *IOStreams) AttachPTY() (tty *os.File, detach func(), err error) {
	ptm, tty, err := pty.Open()
	if err != nil {
		return nil, nil, err
	}
	keys, err := cancelreader.NewReader(s.In)
	if err != nil {
		ptm.Close()
		tty.Close()
		return nil, nil, err
	}
	restore := func() {}
	if in, ok := s.In.(*os.File); ok && term.IsTerminal(int(in.Fd())) {
		restore = follow(in, ptm)
	}
	go io.Copy(ptm, keys)
	out := make(chan struct{})
	go func() {
		defer close(out)
		io.Copy(s.Terminal(), ptm) // ends with EIO once the session's terminal is closed
	}()
	return tty, func() {
		tty.Close() // the child's copies are gone with it: reading ptm ends once drained
		select {
		case <-out:
		case <-time.After(drainPTY):
		}
		keys.Cancel()
		keys.Close()
		restore()
		ptm.Close()
	}, nil
}

// follow makes in raw and has ptm take its size, now and whenever the
// window changes; its result undoes both.
func follow(in, ptm *os.File) (restore func()) {
	_ = pty.InheritSize(in, ptm)
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-winch:
				_ = pty.InheritSize(in, ptm)
			case <-done:
				return
			}
		}
	}()
	state, err := term.MakeRaw(int(in.Fd()))
	return func() {
		signal.Stop(winch)
		close(done)
		if err == nil {
			_ = term.Restore(int(in.Fd()), state)
		}
	}
}
