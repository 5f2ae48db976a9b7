package cmd

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/plan"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

// printShow writes a task for a reader: a header, fields (parked says
// whether partial work waits under the task's ref), the open question, the
// last answer, and the history.
func printShow(io *IOStreams, now time.Time, t *task.Task, lookup func(string) (*task.Task, error), parked bool,
	checks, spent string) {
	w := io.Out
	fmt.Fprintf(w, "%s  %s\n", io.Cyan(t.ID), io.Bold(t.Title))
	fmt.Fprintf(w, "%s %s · %s · %s\n", ui.StateIcon(io, t.State), ui.PaintState(io, t.State, string(t.State)),
		ui.PriorityText(io, t.Priority), t.Type)
	ui.PrintTable(w, showFields(io, now, t, lookup, parked, checks, spent))
	showSections(io, now, t)
	printQuestions(io, t.Questions)
	printHistory(io, t)
}

// showFields are the rows of printShow's table of fields.
func showFields(io *IOStreams, now time.Time, t *task.Task, lookup func(string) (*task.Task, error), parked bool,
	checks, spent string) [][]string {
	var rows [][]string
	field := func(k, v string) {
		if v != "" && k != "" {
			rows = append(rows, []string{io.Faint(k + ":"), v})
		} else if v != "" {
			rows = append(rows, []string{"", v})
		}
	}
	field("size", string(t.Size))
	if t.Parent != "" {
		field("parent", showRef(io, lookup, t.Parent))
	}
	for i, d := range t.DependsOn {
		k := "depends on"
		if i > 0 {
			k = "" // one dependency a line, under the first
		}
		field(k, showRef(io, lookup, d))
	}
	field("labels", strings.Join(t.Labels, ", "))
	field("every", t.Every)
	field("next", ui.NextText(t, now))
	if t.Follows != "" {
		field("follows", showRef(io, lookup, t.Follows))
	}
	if url, rounds := ending.PullRequest(t); url != "" {
		field("pull request", fmt.Sprintf("%s (feedback rounds: %d)", url, rounds))
	}
	field("created", when(now, t.CreatedAt))
	field("updated", when(now, t.UpdatedAt))
	field("agent", t.Agent)
	field("runs with", agentSettingsText(t.AgentSettings))
	field("session", t.SessionID)
	field("checks", strings.Join(t.Checks, "; "))
	field("check round", checks)
	field("measured", t.Measure(now).Text())
	field("spent", spent)
	if parked {
		field("parked work", git.ParkRef(t.ID)+" "+io.Faint("(bh diff "+t.ID+")"))
	}
	if l := t.Lease; l != nil {
		field("lease", fmt.Sprintf("%s (pid %d on %s), heartbeat %s", l.Worker, l.PID, l.Host, when(now, l.Heartbeat)))
	}
	policyFields(io, field, t.Gate, t.Human, t.HumanTimeout, t.OnTimeout, t.NeedsReview)
	return rows
}

// showRef is another task named in a field: its state and title.
func showRef(io *IOStreams, lookup func(string) (*task.Task, error), id string) string {
	r, err := lookup(id)
	var nf *task.NotFoundError
	switch {
	case err == nil:
		return fmt.Sprintf("%s %s  %s", ui.StateIcon(io, r.State), id, r.Title)
	case errors.As(err, &nf):
		return id + io.Red("  (missing)")
	}
	return id + io.Red("  (unreadable: see bh show "+id+")")
}

// showSections writes printShow's blocks of text: the description, the
// open questions or the last one, the last answer and the agent's report.
func showSections(io *IOStreams, now time.Time, t *task.Task) {
	w := io.Out
	section(io, "description", t.Description)
	planTitle, planText := plan.Shown(t)
	section(io, planTitle, planText)
	if t.AgentSettings != nil {
		section(io, "agent instructions", t.AgentSettings.System)
	}
	if t.State == task.AwaitingInput {
		fmt.Fprintf(w, "\n%s\n", io.Bold(fmt.Sprintf("waiting for your answer (asked %s)", ui.RelTime(now, ui.AskedAt(t)))))
		for _, q := range t.OpenQuestions() {
			ui.PrintQuestionAs(io, now, q, "  ❓ ", "  ")
		}
		for _, l := range answerWith(t, "") {
			fmt.Fprintf(w, "  %s\n", io.Faint(l))
		}
	} else if t.Question != "" {
		section(io, "last question", t.Question)
		section(io, "its context", t.QuestionContext)
	}
	if t.HumanResponse != "" {
		title := "last answer"
		if t.HumanRespondedAt != nil {
			title += ", " + when(now, *t.HumanRespondedAt)
		}
		section(io, title, t.HumanResponse)
	}
	section(io, "summary", t.Summary)
	section(io, "details", t.Details)
	section(io, "issues", strings.Join(t.Issues, "\n"))
}

// section writes a titled block of text, indented; nothing when empty.
func section(io *IOStreams, title, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	fmt.Fprintf(io.Out, "\n%s\n  %s\n", io.Bold(title), ui.IndentLines(text, "  "))
}

// when is an exact time, with how long ago it was.
func when(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return fmt.Sprintf("%s (%s)", t.UTC().Format(time.RFC3339), ui.RelTime(now, t))
}

// agentSettingsText is a task's own agent settings on one line, the
// instructions left for their own section.
func agentSettingsText(a *task.AgentSettings) string {
	if a == nil {
		return ""
	}
	var parts []string
	for _, kv := range [][2]string{{"", a.Agent}, {"model ", a.Model}, {"timeout ", a.Timeout},
		{"permission mode ", a.PermissionMode}, {"sandbox ", a.Sandbox}, {"in ", a.Dir}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+kv[1])
		}
	}
	return strings.Join(parts, ", ")
}
