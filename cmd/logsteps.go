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
	io := l.o.IO
	if l.o.JSON {
		b, _ := json.Marshal(struct {
			Kind   string    `json:"kind"`
			At     time.Time `json:"at"`
			TaskID string    `json:"taskId"`
			Text   string    `json:"text"`
		}{"step", s.At.UTC(), s.TaskID, s.Step})
		fmt.Fprintf(io.Out, "%s\n", b)
		return
	}
	at := s.At.UTC().Format(time.RFC3339)
	if !io.IsTTY {
		fmt.Fprintln(io.Out, strings.Join([]string{at, s.TaskID, "step", s.Step}, "\t"))
		return
	}
	fmt.Fprintf(io.Out, "%s  %s  %-15s  %s\n", io.Faint(at), io.Cyan(s.TaskID), "step", io.Faint(s.Step))
}
