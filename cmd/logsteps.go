package cmd

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task/store"
)

// writeStep prints one agent step as a log line of kind "step".
func (l *logger) writeStep(s store.StepLine) {
	if l.only != "" && s.TaskID != l.only {
		return
	}
	l.line(struct {
		Kind   string    `json:"kind"`
		At     time.Time `json:"at"`
		TaskID string    `json:"taskId"`
		Text   string    `json:"text"`
	}{"step", s.At.UTC(), s.TaskID, s.Step}, s.At, s.TaskID, "step", s.Step, true)
}

// line prints one line of the log: v as JSON with --json, else the time,
// task, kind and text (tab-separated in a pipe; faint, a step's text).
func (l *logger) line(v any, at time.Time, id, kind, text string, faint bool) {
	io := l.o.IO
	if l.o.JSON {
		b, _ := json.Marshal(v)
		fmt.Fprintf(io.Out, "%s\n", b)
		return
	}
	ts := at.UTC().Format(time.RFC3339)
	if !io.IsTTY {
		fmt.Fprintln(io.Out, strings.Join([]string{ts, id, kind, text}, "\t"))
		return
	}
	if faint {
		text = io.Faint(text)
	}
	fmt.Fprintf(io.Out, "%s  %s  %-15s  %s\n", io.Faint(ts), io.Cyan(id), kind, text)
}
