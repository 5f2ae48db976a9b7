package store

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// StepLine is one tool call of a running agent in .git/bh/runs/steps.jsonl,
// the live feed bh log --follow shows beside the tasks' histories. It is
// local state: steps are too many for a task's history.
type StepLine struct {
	At     time.Time `json:"at"`
	TaskID string    `json:"taskId"`
	Step   string    `json:"step"`
}

// maxSteps bounds the feed: a worker starting finds it cut back to nothing
// once it grew past this.
const maxSteps = 4 << 20

// RunDir is task id's folder of runs (its logs, journal, session
// copies), or the file at names in it.
func RunDir(s *Store, id string, names ...string) string {
	return s.Local(append([]string{"runs", id}, names...)...)
}

// StepsPath is the live feed of the agents' steps.
func StepsPath(s *Store) string { return s.Local("runs", "steps.jsonl") }

// AppendStep adds a running agent's tool call to the feed.
func AppendStep(s *Store, l StepLine) {
	b, err := json.Marshal(l)
	if err != nil {
		return
	}
	path := StepsPath(s)
	os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	f.Write(append(b, '\n'))
	f.Close()
}

// TrimSteps empties a feed grown too long (a worker starting).
func TrimSteps(s *Store) {
	if fi, err := os.Stat(StepsPath(s)); err == nil && fi.Size() > maxSteps {
		os.Truncate(StepsPath(s), 0)
	}
}

// LastStep is the latest step of task id in the feed, or nil: what its
// agent did last, or why it waits (an API retry).
func LastStep(s *Store, id string) *StepLine {
	if st := Steps(s, id, 1); len(st) == 1 {
		return &st[0]
	}
	return nil
}

// Steps are the latest n steps of task id in the feed, oldest first. Only
// the feed's tail is read, which holds the steps of the runs under way.
func Steps(s *Store, id string, n int) []StepLine {
	f, err := os.Open(StepsPath(s))
	if err != nil {
		return nil
	}
	defer f.Close()
	const tail = 256 << 10
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	off := max(fi.Size()-tail, 0)
	buf := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil {
		return nil
	}
	lines := bytes.Split(buf, []byte{'\n'})
	var out []StepLine
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		var l StepLine
		if json.Unmarshal(lines[i], &l) == nil && l.TaskID == id {
			out = append(out, l)
		}
	}
	slices.Reverse(out)
	return out
}
