package mcp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/agent/untrusted"
	"github.com/gofrs/flock"
)

// The run's outbox is a folder of JSON-lines files, one per kind of thing
// that comes out of a run (asked.jsonl, added.jsonl): bh mcp appends to
// them inside the sandbox, and the worker takes them outside, as hostile
// input, when the run ends.

// OutboxEnv names the run's outbox in bh mcp's environment.
const OutboxEnv = "BH_OUTBOX"

// MaxLineBytes bounds one line of the outbox: the reader takes no longer
// line, so a longer one is refused to the agent when it writes it, never
// acknowledged and then dropped.
const MaxLineBytes = 1 << 20

// MaxOutboxBytes caps one file of the outbox: more is no run's questions
// or tasks but an agent filling its outbox.
const MaxOutboxBytes = 8 * MaxLineBytes

// OutboxError is an outbox the worker cannot take from: a link or
// anything but a file where bh mcp writes, a file over MaxOutboxBytes, a
// line that does not parse. Only the agent can have made it so: the run
// is the agent's failure.
type OutboxError struct{ Err error }

func (e *OutboxError) Error() string { return "the run's outbox: " + e.Err.Error() }
func (e *OutboxError) Unwrap() error { return e.Err }

var errNoOutbox = errors.New("bh mcp has no outbox ($" + OutboxEnv + "): it takes questions and tasks only in a run bh worker started")

// appendLines appends lines (each ending in a newline) to the outbox's
// file name, all at once under the file's lock.
func appendLines(outbox, name string, lines [][]byte) error {
	if outbox == "" {
		return errNoOutbox
	}
	if err := os.MkdirAll(outbox, 0o700); err != nil {
		return err
	}
	path := filepath.Join(outbox, name)
	l := flock.New(path + ".lock")
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	for _, b := range lines {
		if _, err := f.Write(b); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// takeLines hands each line of the outbox's file name to parse, then
// removes the file, whatever it was: the next run starts afresh, and what
// is inside a folder planted there is removed, never followed. A last
// line without its newline is a write the agent's death cut short, and
// is dropped; any other line parse refuses is an OutboxError.
func takeLines(outbox, name string, parse func([]byte) error) error {
	path := filepath.Join(outbox, name)
	err := readLines(path, parse)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if rerr := os.RemoveAll(path); err == nil {
		err = rerr
	}
	return err
}

func readLines(path string, parse func([]byte) error) error {
	f, err := untrusted.OpenReader(path, MaxOutboxBytes)
	var bad *untrusted.Error
	if errors.As(err, &bad) {
		return &OutboxError{Err: err}
	}
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, err := readOutboxLine(r)
		switch {
		case errors.As(err, &bad):
			return &OutboxError{Err: err}
		case err == io.EOF:
			return nil
		case errors.Is(err, io.ErrUnexpectedEOF):
			_ = parse(line) // dropped when it does not parse: a write the agent's death cut short
			return nil
		case err != nil:
			return err
		}
		if err := parse(line); err != nil {
			return &OutboxError{Err: fmt.Errorf("%s: line %d: %w", filepath.Base(path), n, err)}
		}
	}
}

// readOutboxLine reads one line of at most MaxLineBytes and its newline;
// io.ErrUnexpectedEOF: the last line, unterminated.
func readOutboxLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > MaxLineBytes+1 {
			return nil, &OutboxError{Err: fmt.Errorf("a line over %d bytes", MaxLineBytes)}
		}
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(line) > 0:
			return line, io.ErrUnexpectedEOF
		}
		return nil, err
	}
}
