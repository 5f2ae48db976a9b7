package ui

import (
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
