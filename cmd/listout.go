package cmd

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
)

// printTasks shows a list of tasks: a table on a terminal, tab-separated
// rows (id, state, priority, type, size, title, labels) in a pipe, or JSON.
func printTasks(o base, tasks []*task.Task, empty string) error {
	if o.JSON {
		return writeJSON(o.IO.Out, tasksJSON(tasks))
	}
	if !o.IO.IsTTY {
		// Rows appended by hand, a few hundred at a time into one buffer:
		// at 10k, Fprintln of a Join was a tenth of bh list.
		b := make([]byte, 0, 32<<10)
		for i := 0; i < len(tasks); i += 256 {
			b = appendRows(b[:0], tasks[i:min(i+256, len(tasks))])
			o.IO.Out.Write(b)
		}
		return nil
	}
	if len(tasks) == 0 {
		fmt.Fprintln(o.IO.ErrOut, empty)
		return nil
	}
	rows := make([][]string, 0, len(tasks))
	now := o.Now()
	for _, t := range tasks {
		title := t.Title
		if t.State == task.Closed {
			title = o.IO.Faint(title)
		}
		rows = append(rows, []string{ui.StateIcon(o.IO, t.State) + " " + o.IO.Cyan(t.ID),
			ui.PriorityText(o.IO, t.Priority), string(t.Type), string(t.Size), title,
			strings.Join(slices.DeleteFunc([]string{labelText(o.IO, t.Labels), hitlTags(o.IO, t),
				o.IO.Yellow(ui.ScheduleTag(t, now))}, func(s string) bool { return s == "" }), " ")})
	}
	ui.FitTable(o.IO.Out, rows, o.IO.Cols, 4)
	return nil
}

// appendRows appends a tab-separated row per task to b.
func appendRows(b []byte, tasks []*task.Task) []byte {
	for _, t := range tasks {
		for _, f := range [...]string{t.ID, string(t.State), string(t.Priority), string(t.Type), string(t.Size), ui.Flatten(t.Title)} {
			b = append(append(b, f...), '\t')
		}
		for i, l := range t.Labels {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, l...)
		}
		b = append(b, '\n')
	}
	return b
}

func labelText(io *IOStreams, labels []string) string {
	if len(labels) == 0 {
		return ""
	}
	return io.Faint("#" + strings.Join(labels, " #"))
}

// hitlTags marks the tasks whose human-in-the-loop settings differ from
// the config's defaults, and those marked for review.
func hitlTags(io *IOStreams, t *task.Task) string {
	var tags []string
	if t.NeedsReview {
		tags = append(tags, io.Yellow("needs review"))
	}
	if t.Gate != "" {
		tags = append(tags, io.Faint("gate:"+t.Gate))
	}
	if t.Human != nil && !*t.Human {
		tags = append(tags, io.Faint("human:false"))
	}
	return strings.Join(tags, " ")
}

// printAwaiting shows what each waiting task asks. In a pipe each question is
// one row: id, priority, size, title, question, context, asked at and
// expires at (RFC 3339; empty when it never expires).
func printAwaiting(o base, tasks []*task.Task) error {
	if o.JSON {
		return writeJSON(o.IO.Out, tasksJSON(tasks))
	}
	now := o.Now()
	for i, t := range tasks {
		at := ui.AskedAt(t)
		if !o.IO.IsTTY {
			for _, q := range t.OpenQuestions() {
				exp := ""
				if q.ExpiresAt != nil {
					exp = q.ExpiresAt.UTC().Format(time.RFC3339)
				}
				fmt.Fprintln(o.IO.Out, strings.Join([]string{t.ID, string(t.Priority), string(t.Size),
					ui.Flatten(t.Title), ui.Flatten(q.Question), ui.Flatten(q.Context), at.UTC().Format(time.RFC3339), exp}, "\t"))
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(o.IO.Out)
		}
		size := cmp.Or(string(t.Size), "-")
		fmt.Fprintf(o.IO.Out, "%s  %s  %s  %s\n", o.IO.Cyan(t.ID), ui.PriorityText(o.IO, t.Priority), size, o.IO.Bold(t.Title))
		for _, q := range t.OpenQuestions() {
			ui.PrintQuestionAs(o.IO, now, q, "  ❓ ", "  ")
		}
		fmt.Fprintf(o.IO.Out, "     %s\n", o.IO.Faint("asked "+ui.RelTime(now, at)))
		for _, l := range answerWith(t, "") {
			fmt.Fprintf(o.IO.Out, "     %s\n", o.IO.Faint(l))
		}
	}
	if len(tasks) == 0 && o.IO.IsTTY {
		fmt.Fprintln(o.IO.ErrOut, "no task is waiting for your answer")
	}
	return nil
}

// warnFiles reports the task files a listing had to skip, one line each,
// and what to do about them once.
func warnFiles(io *IOStreams, jsonMode bool, errs []error) {
	if jsonMode {
		for _, err := range errs {
			warn(io, jsonMode, err)
		}
		return
	}
	for _, err := range errs { // each file named, and what to do said once
		fmt.Fprintf(io.ErrOut, "bh: warning: %s\n", err)
	}
	if len(errs) > 0 {
		if h := hintFor(errs[0]); h != "" {
			fmt.Fprintf(io.ErrOut, "hint: %s\n", h)
		}
	}
}

// taskJSON is a task as bh show and bh list print it with --json: its
// fields, and prUrl, the URL of its pull request (land: pr), which only
// its history records.
type taskJSON struct {
	*task.Task
	PRURL string `json:"prUrl,omitempty"`
}

func tasksJSON(ts []*task.Task) []taskJSON {
	if ts == nil {
		return nil
	}
	out := make([]taskJSON, len(ts))
	for i, t := range ts {
		out[i] = taskJSON{t, t.PullRequest()}
	}
	return out
}
