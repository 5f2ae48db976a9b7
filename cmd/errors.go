package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// Exit codes, documented in bh --help.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
	// exitCannotStart is a worker that cannot work here at all (no agent,
	// no git identity, no branch to land on): one clear error, no task touched.
	exitCannotStart = 3
)

// exitCodeError gives an error an exit code of its own.
type exitCodeError struct {
	error
	code int
}

func (e *exitCodeError) Unwrap() error { return e.error }

// usageError is a mistake in how bh was called: exit code 2.
type usageError struct{ error }

func (e *usageError) Unwrap() error { return e.error }

func usageErrorf(format string, a ...any) error {
	return &usageError{fmt.Errorf(format, a...)}
}

// hintError adds advice to an error; the advice is printed as "hint: ...".
type hintError struct {
	error
	hint string
}

func (e *hintError) Unwrap() error { return e.error }
func (e *hintError) Hint() string  { return e.hint }

func withHint(err error, hint string) error { return &hintError{err, hint} }

// hintFor finds advice for err: its own Hint, else a known case.
func hintFor(err error) string {
	var h interface{ Hint() string }
	if errors.As(err, &h) && h.Hint() != "" {
		return h.Hint()
	}
	var (
		nf *task.NotFoundError
		am *task.AmbiguousError
		tr *task.TransitionError
		fe *task.FileError
	)
	switch {
	case errors.Is(err, store.ErrNoStore):
		return "run 'bh init' in your git repository"
	case errors.Is(err, store.ErrNoRepo):
		return "run 'git init' first, or cd into your git repository"
	case errors.As(err, &nf):
		return "run 'bh list --all' to see the task ids"
	case errors.As(err, &am):
		return "type more of the id to pick one"
	case errors.As(err, &fe):
		return "fix the file with bh edit, or by hand; bh leaves it as it is"
	case errors.As(err, &tr) && tr.From != tr.To:
		return fmt.Sprintf("from %s a task can move to: %s", tr.From, strings.Join(allowedFrom(tr.From), ", "))
	}
	return ""
}

func allowedFrom(from task.State) []string {
	var out []string
	for _, s := range task.States {
		if task.CanMove(from, s) {
			out = append(out, string(s))
		}
	}
	return out
}

func exitCode(err error) int {
	var u *usageError
	var c *exitCodeError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &u):
		return exitUsage
	case errors.As(err, &c):
		return c.code
	}
	return exitError
}

// printError writes err for a human ("bh: msg" and "hint: ...") or, with
// --json, as one JSON object, so that agents can parse stderr too.
func printError(w io.Writer, jsonMode bool, err error, hint string) {
	if jsonMode {
		b, _ := json.Marshal(struct {
			Error string `json:"error"`
			Hint  string `json:"hint,omitempty"`
		}{err.Error(), hint})
		fmt.Fprintf(w, "%s\n", b)
		return
	}
	fmt.Fprintf(w, "bh: %s\n", err)
	if hint != "" {
		fmt.Fprintf(w, "hint: %s\n", hint)
	}
}

// warn reports a problem that does not stop the command, such as one
// unreadable task file in a listing.
func warn(io *IOStreams, jsonMode bool, err error) {
	if jsonMode {
		enc := json.NewEncoder(io.ErrOut)
		enc.SetEscapeHTML(false) // "a -> b" reads as such
		enc.Encode(struct {
			Warning string `json:"warning"`
			Hint    string `json:"hint,omitempty"`
		}{err.Error(), hintFor(err)})
		return
	}
	fmt.Fprintf(io.ErrOut, "bh: warning: %s\n", err)
	if h := hintFor(err); h != "" {
		fmt.Fprintf(io.ErrOut, "hint: %s\n", h)
	}
}

// warnCycles names the dependsOn cycles among tasks, whose tasks are never
// ready, with how to break them.
func warnCycles(io *IOStreams, jsonMode bool, tasks []*task.Task) {
	for _, c := range task.Cycles(tasks) {
		warn(io, jsonMode, fmt.Errorf("%s: none of these tasks will ever be ready; drop one of the dependencies with bh edit %s",
			task.CycleText(c), c[0]))
	}
}

// writeJSON prints v as indented JSON with a final newline. Field names come
// from the json tags of task.Task and are part of bh's interface.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
