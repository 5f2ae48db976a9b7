package store

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
)

// StepFeed reads new lines of the workers' live feed of agent steps
// (StepsPath) from where it left off.
type StepFeed struct {
	Path string
	off  int64
}

// NewStepFeed starts at the feed's end, for the steps from now on (bh log
// --follow); a StepFeed made with its Path alone reads from the start.
func NewStepFeed(path string) *StepFeed {
	f := &StepFeed{Path: path}
	if fi, err := os.Stat(path); err == nil {
		f.off = fi.Size()
	}
	return f
}

// Read returns the steps written since the last read.
func (f *StepFeed) Read() []StepLine {
	file, err := os.Open(f.Path)
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
	var out []StepLine
	r := bufio.NewReader(file)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			break // a half-written line is read whole next time
		}
		f.off += int64(len(line))
		var s StepLine
		if json.Unmarshal(line, &s) == nil {
			out = append(out, s)
		}
	}
	return out
}
