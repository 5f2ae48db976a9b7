package ui

import (
	"github.com/bh-tracker/bh/task"
)

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
	icon, ok := stateIcons[s]
	if !ok {
		icon = "?"
	}
	return PaintState(io, s, icon)
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
