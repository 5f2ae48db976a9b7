package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task/store"
)

// stepFeed reads new lines of the workers' live feed of agent steps
// (store.StepsPath) from where it left off.
type stepFeed struct {
	path string
	off  int64
}

// newStepFeed starts at the feed's end: --follow shows steps from now on.
func newStepFeed(path string) *stepFeed {
	f := &stepFeed{path: path}
	if fi, err := os.Stat(path); err == nil {
		f.off = fi.Size()
	}
	return f
}

// read returns the steps written since the last read.
func (f *stepFeed) read() []store.StepLine {
	file, err := os.Open(f.path)
	if err != nil {
		return nil
	}
	defer file.Close()
	if fi, err := file.Stat(); err == nil && fi.Size() < f.off {
		f.off = 0 // the worker cut the feed back
	}
	if _, err := file.Seek(f.off, io.SeekStart); err != nil {
		return nil
	}
	var out []store.StepLine
	r := bufio.NewReader(file)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			break // a half-written line is read whole next time
		}
		f.off += int64(len(line))
		var s store.StepLine
		if json.Unmarshal(line, &s) == nil {
			out = append(out, s)
		}
	}
	return out
}

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
