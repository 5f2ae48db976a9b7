package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/fsnotify/fsnotify"
)

// logger prints the timeline, and remembers per task how many events it
// has shown so that --follow prints only new ones.
type logger struct {
	o      *LogOptions
	s      *store.Store
	only   string // one task's id, or "" for all
	since  time.Time
	shown  map[string]int
	count  int
	warned bool
	tailed bool // -n applied: it cuts the first print only
}

// catchUp prints every event not shown yet, of every task (or the one).
func (l *logger) catchUp() error {
	var tasks []*task.Task
	if l.only != "" {
		t, err := l.s.Get(l.only)
		if err != nil {
			return err
		}
		tasks = []*task.Task{t}
	} else {
		all, bad, err := l.s.List()
		if err != nil {
			return err
		}
		if !l.warned {
			warnFiles(l.o.IO, l.o.JSON, bad)
			l.warned = true
		}
		tasks = all
	}
	l.print(tasks)
	if l.count == 0 && !l.o.Follow && l.o.IO.IsTTY {
		fmt.Fprintln(l.o.IO.ErrOut, "no events")
	}
	return nil
}

// print writes the events of tasks that are new since the last print.
func (l *logger) print(tasks []*task.Task) {
	from := make(map[string]int, len(tasks))
	byID := make(map[string]*task.Task, len(tasks))
	for _, t := range tasks {
		n := l.shown[t.ID]
		if len(t.History) < n {
			n = 0 // rewritten by hand: take it as it is now, from the start
		}
		from[t.ID], l.shown[t.ID], byID[t.ID] = n, len(t.History), t
	}
	var out []task.Entry
	for _, e := range task.Timeline(tasks, l.since) {
		if e.Seq >= from[e.TaskID] {
			out = append(out, e)
		}
	}
	if n := l.o.Lines; n > 0 && !l.tailed && len(out) > n {
		out = out[len(out)-n:] // the last n, as tail -n: before --follow's new ones
	}
	l.tailed = true
	for _, e := range out {
		l.write(byID[e.TaskID], e)
	}
}

func (l *logger) write(t *task.Task, e task.Entry) {
	l.count++
	l.line(toLogLine(e), e.At, e.TaskID, e.Kind, logText(t, e.Event), false)
}

// follow prints what there is, then new events as task files change, until
// the context ends (Ctrl-C). The watch starts first, so that no write
// falls between the two.
func (l *logger) follow() error {
	w, steps, err := l.watch()
	if err != nil {
		return err
	}
	defer w.Close()
	if err := l.catchUp(); err != nil {
		return err
	}
	for {
		select {
		case <-l.o.Ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			l.changed(ev, steps)
		case _, ok := <-w.Errors:
			if !ok {
				return nil
			}
			if err := l.catchUp(); err != nil { // events were lost: look at everything
				return err
			}
		}
	}
}

// watch watches the task files, and the workers' live feed of the agents'
// steps as they happen.
func (l *logger) watch() (*fsnotify.Watcher, *store.StepFeed, error) {
	dir := filepath.Join(l.s.Dir, "tasks")
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, nil, fmt.Errorf("follow: %w", err)
	}
	if err := w.Add(dir); err != nil {
		w.Close()
		return nil, nil, fmt.Errorf("follow %s: %w", dir, err)
	}
	steps := store.NewStepFeed(store.StepsPath(l.s))
	runs := filepath.Dir(steps.Path)
	if os.MkdirAll(runs, 0o755) == nil {
		w.Add(runs) // without it, steps show with the next task event
	}
	return w, steps, nil
}

// changed prints the new steps, and the task whose file ev names.
func (l *logger) changed(ev fsnotify.Event, steps *store.StepFeed) {
	for _, st := range steps.Read() {
		l.writeStep(st)
	}
	id, isTask := strings.CutSuffix(filepath.Base(ev.Name), ".yaml")
	if !isTask || ev.Op == fsnotify.Chmod || l.only != "" && id != l.only {
		return
	}
	// A file half-written by hand is read again on its next write.
	if t, err := l.s.Get(id); err == nil {
		l.print([]*task.Task{t})
	}
}

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
