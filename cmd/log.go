package cmd

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/spf13/cobra"
)

type LogOptions struct {
	base
	Ctx    context.Context
	ID     string
	Follow bool
	Since  string
	Lines  int // -n: only the last N events (then, with --follow, every new one)
}

func newCmdLog(f *Factory, runF func(*LogOptions) error) *cobra.Command {
	opts := &LogOptions{}
	c := &cobra.Command{
		Use:   "log [<id>]",
		Short: "Show what happened to the tasks, in time order",
		Long: `Show the events of every task (or of one) in time order: questions asked
and answered (numbered when asked together), runs started and finished,
commits, rollbacks, parked and unparked work, stops, and changes of state.
-n N shows only the last N events (then, with --follow, every new one).

Each event is one line: time, task id, kind, text; tab-separated when stdout
is not a terminal. With --json, each is one JSON object per line, tagged
"kind": "event", with the event's own kind in "event" and its task in
"taskId", "title" and "seq" (its index in the task's history).
--follow keeps watching .bh/tasks and prints new events as they are written,
until interrupted.`,
		Example: `  bh log --since 2h
  bh log -n 20
  bh log a1b2
  bh log --follow --json`,
		Args:              argsRange(0, 1, "at most one task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(c *cobra.Command, args []string) error {
			opts.base, opts.Ctx, opts.ID = f.base(), c.Context(), argAt(args, 0)
			return runWith(runF, logRun, opts)
		},
	}
	c.Flags().BoolVarP(&opts.Follow, "follow", "f", false, "keep printing new events until interrupted")
	c.Flags().IntVarP(&opts.Lines, "lines", "n", 0, "only the last `N` events")
	c.Flags().StringVar(&opts.Since, "since", "", "only events of the last `DURATION` (90m, 36h, 2d)")
	return c
}

func logRun(opts *LogOptions) error {
	if opts.Lines < 0 {
		return usageErrorf("-n: %d is not a number of events", opts.Lines)
	}
	var since time.Time
	if opts.Since != "" {
		d, err := task.ParseDur(opts.Since)
		if err != nil {
			return usageErrorf("--since: %v", err)
		}
		since = opts.Now().Add(-d)
	}
	s, err := opts.Store()
	if err != nil {
		return err
	}
	only := ""
	if opts.ID != "" {
		if only, err = s.Resolve(opts.ID); err != nil {
			return err
		}
	}
	l := &logger{o: opts, s: s, only: only, since: since, shown: map[string]int{}}
	if !opts.Follow {
		return l.catchUp()
	}
	return l.follow()
}

// logLine is one event of bh log --json: "kind" tags the object, "event"
// is the event's own kind.
type logLine struct {
	Kind       string     `json:"kind"`
	TaskID     string     `json:"taskId"`
	Title      string     `json:"title"`
	Seq        int        `json:"seq"`
	At         time.Time  `json:"at"`
	Event      string     `json:"event"`
	From       task.State `json:"from,omitempty"`
	To         task.State `json:"to,omitempty"`
	By         string     `json:"by,omitempty"`
	QuestionID string     `json:"questionId,omitempty"`
	Text       string     `json:"text,omitempty"`
	Context    string     `json:"context,omitempty"`
	Status     string     `json:"status,omitempty"`
	Session    string     `json:"sessionId,omitempty"`
	Commit     string     `json:"commit,omitempty"`
	// Comments on lines given with an answer (event "input.received").
	Comments []task.LineComment `json:"comments,omitempty"`
	// A check's run (event "check").
	Command  string  `json:"command,omitempty"`
	ExitCode int     `json:"exitCode,omitempty"`
	Took     float64 `json:"tookSeconds,omitempty"`
	Round    int     `json:"round,omitempty"`
}

func toLogLine(e task.Entry) logLine {
	return logLine{Kind: "event", TaskID: e.TaskID, Title: e.Title, Seq: e.Seq, At: e.At, Event: e.Kind,
		From: e.From, To: e.To, By: e.By, QuestionID: e.QuestionID, Text: e.Text, Context: e.Context,
		Status: e.Status, Session: e.Session, Commit: e.Commit, Comments: e.Comments, Command: e.Command,
		ExitCode: e.ExitCode, Took: e.Took.Seconds(), Round: e.Round}
}

// logText is an event of t on one line.
func logText(t *task.Task, e task.Event) string {
	var parts []string
	switch {
	case e.From != "" && e.To != "":
		parts = append(parts, string(e.From)+" → "+string(e.To))
	case e.To != "":
		parts = append(parts, "→ "+string(e.To))
	}
	if n := t.AskedNumber(e.QuestionID); n > 0 {
		parts = append(parts, fmt.Sprintf("(question %d)", n))
	}
	if e.Status != "" {
		parts = append(parts, "("+e.Status+")")
	}
	if e.Session != "" {
		parts = append(parts, "session "+e.Session)
	}
	if e.Commit != "" {
		parts = append(parts, fmt.Sprintf("commit %.12s", e.Commit))
	}
	if e.Text != "" {
		parts = append(parts, ui.Flatten(e.Text))
	}
	for _, c := range e.Comments {
		parts = append(parts, fmt.Sprintf("· %s:%d: %s", c.Path, c.Line, ui.Flatten(c.Text)))
	}
	if e.By != "" {
		parts = append(parts, "· by "+task.Who(e.By, config.UserName()))
	}
	return strings.Join(parts, " ")
}
