package ui

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
)

// PrintQuestionAs writes q as lists and the board show it, with first
// leading the question's line and indent before the lines under it.
func PrintQuestionAs(io *IOStreams, now time.Time, q task.Question, first, indent string) {
	question := ExpandTabs(q.Question) // code keeps its indentation
	if io.Cols > 0 {
		question = Wrap(question, io.Cols-Width(indent)-3)
	}
	text := io.Bold(IndentLines(question, indent+"   "))
	if note := KindNote(q); note != "" {
		text += " " + io.Faint(note)
	}
	fmt.Fprintf(io.Out, "%s%s\n", first, text)
	if q.Context != "" {
		fmt.Fprintf(io.Out, "%s   %s\n", indent, IndentLines(ExpandTabs(q.Context), indent+"   "))
	}
	for _, opt := range q.Options {
		line := "- " + opt.Label
		if opt.Description != "" {
			line += ": " + opt.Description
		}
		fmt.Fprintf(io.Out, "%s   %s\n", indent, line)
	}
	if q.ExpiresAt != nil {
		fmt.Fprintf(io.Out, "%s   %s\n", indent, io.Yellow(task.ExpiryText(now, *q.ExpiresAt)))
	}
}

// IndentLines puts indent before every line but the first, blank lines
// left empty.
func IndentLines(s, indent string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			lines[i] = indent + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// KindNote is how a question is answered, shown beside it: "[yes/no]".
func KindNote(q task.Question) string {
	switch q.Kind() {
	case task.ApprovalQuestion:
		return "[yes/no]"
	case task.ChoiceQuestion:
		if q.MultiSelect {
			return "[pick one or more]"
		}
		return "[pick one]"
	}
	return ""
}

// AskedAt is when the current question was asked: its input.requested
// event, or failing that the last update.
func AskedAt(t *task.Task) time.Time {
	if e, ok := t.LastAsked(); ok {
		return e.At
	}
	return t.UpdatedAt
}

// StateSince is when t entered its current state, from its history.
func StateSince(t *task.Task) time.Time {
	for i := len(t.History) - 1; i >= 0; i-- {
		if e := t.History[i]; e.To == t.State && (e.Kind == task.EventState || e.Kind == task.EventCreated) {
			return e.At
		}
	}
	if t.State == task.AwaitingInput {
		return AskedAt(t)
	}
	return t.UpdatedAt
}

// stateIcons mark each state in lists and trees; they stay readable
// without colour.
var stateIcons = map[task.State]string{
	task.Open:          "○",
	task.InProgress:    "◐",
	task.AwaitingInput: "❓",
	task.InReview:      "⇅",
	task.Blocked:       "⊘",
	task.Deferred:      "⏸",
	task.Failed:        "✗",
	task.Closed:        "✓",
}

// ApprovalIcon marks work held for a human's approval (a gate): it waits
// on the human like ❓, and is not put aside like ⏸ (deferred).
const ApprovalIcon = "✋"

func StateIcon(io *IOStreams, s task.State) string {
	return PaintState(io, s, cmp.Or(stateIcons[s], "?"))
}

// PaintState colours text the way its state is coloured everywhere.
func PaintState(io *IOStreams, s task.State, text string) string {
	switch s {
	case task.InProgress, task.InReview:
		return io.Cyan(text)
	case task.AwaitingInput:
		return io.Magenta(text)
	case task.Blocked, task.Failed:
		return io.Red(text)
	case task.Deferred:
		return io.Faint(text)
	case task.Closed:
		return io.Green(text)
	}
	return text
}

// PriorityText colours the urgent priorities.
func PriorityText(io *IOStreams, p task.Priority) string {
	switch p {
	case "P0":
		return io.Red(string(p))
	case "P1":
		return io.Yellow(string(p))
	}
	return string(p)
}
