package ending

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// The answers to a landing question.
const (
	LandNow   = "land" // try again: the human committed or stashed what was in the way
	LandKeep  = "keep" // leave the work on its branch
	LandTitle = "Land"
)

// The answers to the checks question, besides guidance (an "other"
// choice, which resumes the session with the human's words).
const (
	CheckLand   = "land anyway"
	CheckKeep   = "keep on branch"
	ChecksTitle = "Checks"
)

// checkQuestion asks the human what to do with work whose checks still
// fail after the agent's rounds (or which the agent gave up on).
func checkQuestion(f Facts) task.Question {
	return task.Question{Header: ChecksTitle, Type: task.ChoiceQuestion, Default: CheckKeep,
		Question: fmt.Sprintf("The checks of %s still fail on the tree that would land on %s. "+
			"Land it anyway, keep the work on branch %s, or answer in your own words (other) to guide the agent.",
			f.ID, f.Target, f.Branch),
		Options: []task.Option{
			{Label: CheckLand, Description: "land it on " + f.Target + " although the check fails"},
			{Label: CheckKeep, Description: "end the task, the work kept on branch " + f.Branch + " (bh land " + f.ID + " lands it)"},
		}}
}

// checkContext is the failing check as the human sees it beside the question.
func checkContext(ev task.Event, rounds int) string {
	return fmt.Sprintf("%s exited %d in round %d of %d:\n\n%s", ev.Command, ev.ExitCode, ev.Round, rounds, ev.Output)
}

// asked converts the result's questions for the task. A result without
// any asks its summary, so that an answer always has a question.
func asked(res agent.Result) []task.Question {
	qs := res.Questions
	if len(qs) == 0 {
		text := res.Question
		if text == "" {
			text = res.Summary
		}
		if text == "" {
			text = "The agent stopped without saying why. How should it go on?"
		}
		qs = []agent.Question{{Question: text, Type: agent.QuestionFreeform}}
	}
	out := make([]task.Question, len(qs))
	for i, q := range qs {
		tq := task.Question{Question: q.Question, Header: q.Header, Type: q.Type,
			MultiSelect: q.MultiSelect, Default: q.Default, Tool: q.Tool}
		for _, o := range q.Options {
			tq.Options = append(tq.Options, task.Option{Label: o.Label, Description: o.Description})
		}
		out[i] = tq
	}
	return out
}

// approvalContext is what the reviewer sees beside the question: the
// agent's summary, why the completion waits, and the diff stat.
func approvalContext(summary, why, stat string) string {
	parts := []string{}
	if s := strings.TrimSpace(summary); s != "" {
		parts = append(parts, s)
	}
	parts = append(parts, "Held for approval: "+why+".")
	if s := strings.TrimRight(stat, "\n"); strings.TrimSpace(s) != "" {
		parts = append(parts, s)
	} else {
		parts = append(parts, "(no file changes)")
	}
	return strings.Join(parts, "\n\n")
}

func QuestionTexts(qs []task.Question) []string {
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Question
	}
	return texts
}

func noHumanDetails(asker string, res agent.Result, texts []string, context string) string {
	var b strings.Builder
	b.WriteString(asker + ":\n")
	for _, q := range texts {
		fmt.Fprintf(&b, "- %s\n", q)
	}
	if context = strings.TrimSpace(context); context != "" {
		fmt.Fprintf(&b, "\n%s\n", context)
	}
	if s := strings.TrimSpace(res.Summary); s != "" {
		fmt.Fprintf(&b, "\nIts summary: %s\n", s)
	}
	if d := strings.TrimSpace(res.Details); d != "" {
		fmt.Fprintf(&b, "\n%s\n", d)
	}
	return strings.TrimRight(b.String(), "\n")
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(strings.TrimPrefix(s, "### "), "\n")
	return l
}
