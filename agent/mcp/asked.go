// Package mcp is bh's MCP server (bh mcp), which the worker hands to the
// agent for the length of a run: its permission prompts (Claude Code's
// AskUserQuestion among them) and its ask_human calls become the task's
// typed questions, and it can read the task store and add tasks.
//
// bh mcp runs inside the agent's sandbox, where nothing of bh's own state
// is writable: questions asked during a run go to the run's outbox
// ($BH_OUTBOX/asked.jsonl, the one folder of bh's the sandbox lets the
// agent write), and the worker, outside, takes them when the run ends
// (TakeAsked), reading them as it would anything the agent wrote.
package mcp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/agent/ask"
	"github.com/bh-tracker/bh/agent/untrusted"
	"github.com/gofrs/flock"
)

// MaxQuestionBytes bounds one question as recorded (its JSON line): the
// reader takes no longer line, so a longer question is refused to the
// agent when it asks, never acknowledged and then dropped.
const MaxQuestionBytes = 1 << 20

// tooLarge is the tool error a question over the limit gets: the agent
// can act on it by asking again, shorter.
func tooLarge(n int) error {
	return fmt.Errorf("question too large: %d bytes, limit %d; it was not put to the human. "+
		"Shorten it and ask again: a short question, a few options, and the details in a file "+
		"of the worktree that the question names", n, MaxQuestionBytes)
}

// MaxAskedBytes caps the questions of one run as recorded: more is no
// run's questions but an agent filling its outbox.
const MaxAskedBytes = 8 * MaxQuestionBytes

// OutboxEnv names the run's outbox in bh mcp's environment.
const OutboxEnv = "BH_OUTBOX"

func askedPath(outbox string) string { return filepath.Join(outbox, "asked.jsonl") }

// record appends questions the agent asked during its run to the outbox,
// all of them or, when one is too large, none.
func record(outbox string, qs ...ask.Question) error {
	if outbox == "" {
		return errors.New("bh mcp has no outbox ($" + OutboxEnv + "): questions are taken only in a run bh worker started")
	}
	lines := make([][]byte, 0, len(qs))
	for _, q := range qs {
		b, err := json.Marshal(q)
		if err != nil {
			return fmt.Errorf("record the question: %w", err)
		}
		if len(b) > MaxQuestionBytes {
			return tooLarge(len(b))
		}
		lines = append(lines, append(b, '\n'))
	}
	path := askedPath(outbox)
	if err := os.MkdirAll(outbox, 0o700); err != nil {
		return err
	}
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
			return fmt.Errorf("record the question: %w", err)
		}
	}
	return f.Close()
}

// OutboxError is an outbox the worker cannot take questions from: a link
// or anything but a file where the questions go, more than MaxAskedBytes,
// a line that is no question. Only the agent can have made it so: the
// run is the agent's failure.
type OutboxError struct{ Err error }

func (e *OutboxError) Error() string { return "the run's questions: " + e.Err.Error() }
func (e *OutboxError) Unwrap() error { return e.Err }

// TakeAsked returns the questions asked during a run, from its outbox,
// and forgets them. The outbox is the agent's to write, so it is read as
// hostile input (see package untrusted and OutboxError). A question
// asked again in the run is one question: the same permission request
// twice (the same denied command), whose answers could only agree.
func TakeAsked(outbox string) ([]ask.Question, error) {
	path := askedPath(outbox)
	qs, err := readAsked(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	// Whatever was there goes, so that the next run starts afresh; what
	// is inside a folder planted there is removed, never followed.
	if rerr := os.RemoveAll(path); err == nil && rerr != nil {
		return nil, rerr
	}
	return qs, err
}

func readAsked(path string) ([]ask.Question, error) {
	f, err := untrusted.OpenReader(path, MaxAskedBytes)
	var bad *untrusted.Error
	if errors.As(err, &bad) {
		return nil, &OutboxError{Err: err}
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []ask.Question
	seen := map[string]bool{}
	r := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, err := readQuestionLine(r)
		if errors.As(err, &bad) {
			return nil, &OutboxError{Err: err}
		}
		if err == io.EOF {
			return qs, nil
		}
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, err
		}
		var q ask.Question
		if json.Unmarshal(line, &q) != nil || q.Question == "" {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return qs, nil // a write the agent's death cut short
			}
			return nil, &OutboxError{Err: fmt.Errorf("line %d is no question", n)}
		}
		if !seen[string(line)] {
			seen[string(line)] = true
			q.Question = ask.CapText(q.Question)
			qs = append(qs, q)
		}
		if err != nil {
			return qs, nil
		}
	}
}

// readQuestionLine reads one line of at most MaxQuestionBytes and its newline;
// io.ErrUnexpectedEOF: the last line, unterminated.
func readQuestionLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > MaxQuestionBytes+1 {
			return nil, &OutboxError{Err: fmt.Errorf("a line over %d bytes", MaxQuestionBytes)}
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
