package cmd

import (
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/ending"
)

// printQuestions lists every typed question of every round with its status.
func printQuestions(io *IOStreams, qs []task.Question) {
	if len(qs) == 0 {
		return
	}
	fmt.Fprintf(io.Out, "\n%s\n", io.Bold("questions"))
	for _, q := range qs {
		fmt.Fprintf(io.Out, "  [%s] %s\n", q.Status, ui.IndentLines(q.Question, "    "))
		if text := q.AnswerText(); text != "" {
			fmt.Fprintf(io.Out, "    → %s\n", ui.IndentLines(text, "      "))
		}
		for _, c := range q.Comments {
			fmt.Fprintf(io.Out, "      %s:%d: %s\n", c.Path, c.Line, ui.IndentLines(c.Text, "        "))
		}
	}
}

// histPad lines text up under an event's text, past "  <time>  ".
var histPad = strings.Repeat(" ", len("  2006-01-02T15:04:05Z  "))

// printHistory writes the audit trail, oldest first, one event a line (and
// the text of questions and answers in full below).
func printHistory(io *IOStreams, t *task.Task) {
	events := t.History
	if len(events) == 0 {
		return
	}
	fmt.Fprintf(io.Out, "\n%s\n", io.Bold("history"))
	for _, e := range events {
		fmt.Fprintf(io.Out, "  %s  %s\n", io.Faint(e.At.UTC().Format(time.RFC3339)), eventText(io, t, e))
		label := map[string]string{task.EventInputRequested: "context", task.EventInputUnused: "not used"}[e.Kind]
		if label != "" && e.Context != "" {
			fmt.Fprintf(io.Out, "%s%s: %s\n", histPad, label, ui.IndentLines(e.Context, histPad+"  "))
		}
		for _, c := range e.Comments {
			fmt.Fprintf(io.Out, "%s%s:%d: %s\n", histPad, c.Path, c.Line, ui.IndentLines(c.Text, histPad+"  "))
		}
		if e.Kind == task.EventCheck && e.ExitCode != 0 && e.Output != "" {
			fmt.Fprintf(io.Out, "%soutput: %s\n", histPad, ui.IndentLines(lastLines(e.Output, 10), histPad+"  "))
		}
	}
}

func eventText(io *IOStreams, t *task.Task, e task.Event) string {
	var b strings.Builder
	switch e.Kind {
	case task.EventState:
		fmt.Fprintf(&b, "%s → %s", ui.PaintState(io, e.From, string(e.From)), ui.PaintState(io, e.To, string(e.To)))
	case task.EventInputRequested:
		b.WriteString(io.Magenta("❓ asked"))
	case task.EventInputReceived:
		b.WriteString(io.Green("answered"))
	case task.EventInputUnused:
		b.WriteString(io.Yellow("answer not used"))
	default:
		b.WriteString(e.Kind)
	}
	if n := t.AskedNumber(e.QuestionID); n > 0 {
		fmt.Fprintf(&b, " (question %d)", n)
	}
	if e.By != "" {
		fmt.Fprintf(&b, " by %s", task.Who(e.By, config.UserName()))
	}
	if e.Session != "" {
		fmt.Fprintf(&b, " (session %s)", e.Session)
	}
	if e.Commit != "" {
		fmt.Fprintf(&b, " (commit %.12s)", e.Commit)
	}
	if e.Status != "" {
		fmt.Fprintf(&b, " (%s)", e.Status)
	}
	if e.Stats != "" {
		fmt.Fprintf(&b, " [%s]", e.Stats)
	}
	if e.CostUSD != 0 || e.Tokens != 0 {
		fmt.Fprintf(&b, " (%s%s)", costText(e), strings.TrimSuffix(fmt.Sprintf(", %d tokens", e.Tokens), ", 0 tokens"))
	}
	if e.Sandbox != "" {
		fmt.Fprintf(&b, " (sandbox: %s)", e.Sandbox)
	}
	if e.Text != "" {
		fmt.Fprintf(&b, ": %s", ui.IndentLines(e.Text, histPad))
	}
	return b.String()
}

// lastLines is the end of text, at most n lines: a failed check's output
// in the history, whose whole tail is in bh show --json.
func lastLines(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"…"}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// costText is what an event says a run cost: unknown for a run with
// tokens but no cost, whose agent reported none.
func costText(e task.Event) string {
	if e.Kind == task.EventRunFinished && !e.CostReported() {
		return "cost unknown"
	}
	return ending.USD(e.CostUSD)
}
