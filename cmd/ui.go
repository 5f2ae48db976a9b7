package cmd

import (
	"io"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
)

// The terminal UI lives in cmd/ui, which the board shares; these are its
// names as cmd's files have always called them.
type (
	IOStreams = ui.IOStreams
	picker    = ui.Picker
	pickOpt   = ui.PickOpt
)

var errAborted = ui.ErrAborted

const approvalIcon = ui.ApprovalIcon

func systemIO() *IOStreams { return ui.System() }

func newHuhPicker(s *IOStreams) picker { return ui.NewHuhPicker(s) }

func printTable(w io.Writer, rows [][]string)                 { ui.PrintTable(w, rows) }
func fitTable(w io.Writer, rows [][]string, cols, flex int)   { ui.FitTable(w, rows, cols, flex) }
func wrap(s string, n int) string                             { return ui.Wrap(s, n) }
func flatten(s string) string                                 { return ui.Flatten(s) }
func indentLines(s, indent string) string                     { return ui.IndentLines(s, indent) }
func relTime(now, t time.Time) string                         { return ui.RelTime(now, t) }
func askedAt(t *task.Task) time.Time                          { return ui.AskedAt(t) }
func stateSince(t *task.Task) time.Time                       { return ui.StateSince(t) }
func kindNote(q task.Question) string                         { return ui.KindNote(q) }
func stateIcon(io *IOStreams, s task.State) string            { return ui.StateIcon(io, s) }
func paintState(io *IOStreams, s task.State, t string) string { return ui.PaintState(io, s, t) }
func priorityText(io *IOStreams, p task.Priority) string      { return ui.PriorityText(io, p) }

func printQuestionAs(io *IOStreams, now time.Time, q task.Question, first, indent string) {
	ui.PrintQuestionAs(io, now, q, first, indent)
}
