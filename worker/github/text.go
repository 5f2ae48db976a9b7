package github

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/notify"
)

// marker starts every comment bh posts: a reply quoting it, or bh's own
// comment read back, is never an answer.
const marker = "<!-- bh -->"

// questionText is the one comment that asks qs of t's issue: the summary,
// each question (choices numbered, a gate with its diffstat and review
// page), and how to answer.
func questionText(t *task.Task, qs []task.Question, e notify.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n**bh needs an answer** on %s (%s)\n\n", marker, t.ID, oneLine(t.Title))
	if s := strings.TrimSpace(t.Summary); s != "" {
		fmt.Fprintf(&b, "%s\n\n", quote(s))
	}
	for i, q := range qs {
		fmt.Fprintf(&b, "**%d. %s**\n", i+1, oneLine(q.Question))
		if c := strings.TrimSpace(q.Context); c != "" {
			fmt.Fprintf(&b, "%s\n", quote(c))
		}
		for k, o := range q.Options {
			fmt.Fprintf(&b, "%d. %s", k+1, oneLine(o.Label))
			if d := oneLine(o.Description); d != "" {
				fmt.Fprintf(&b, " — %s", d)
			}
			b.WriteString("\n")
		}
		if q.Gate {
			gateText(&b, e)
		}
		b.WriteString("\n")
	}
	b.WriteString("To answer, a collaborator with write access replies here: `/bh 2` picks a choice by its number, " +
		"`/bh yes` or `/bh no <feedback>` answers an approval, and text answers a question in words " +
		"(one `/bh` line per question, in order).\n")
	return b.String()
}

// gateText is a gate's change and its review page.
func gateText(b *strings.Builder, e notify.Event) {
	if d := e.Diffstat; d != nil {
		fmt.Fprintf(b, "\n%d files changed, +%d −%d\n", d.Changed, d.Added, d.Removed)
		for _, f := range d.Files[:min(len(d.Files), 10)] {
			fmt.Fprintf(b, "- `%s` +%d −%d\n", strings.ReplaceAll(f.Path, "`", "'"), f.Added, f.Removed)
		}
	}
	if e.URL != "" {
		fmt.Fprintf(b, "\nReview: %s\n", e.URL)
	}
}

// lateText is the reply to an answer that came too late.
func lateText(who string, t *task.Task) string {
	for i := len(t.History) - 1; i >= 0; i-- {
		if e := t.History[i]; e.Kind == task.EventInputReceived {
			return fmt.Sprintf("%s\n@%s this was answered already (%q), by %s at %s; your reply changed nothing.",
				marker, who, oneLine(e.Text), task.Who(e.By, ""), e.At.UTC().Format("2006-01-02 15:04 UTC"))
		}
	}
	return fmt.Sprintf("%s\n@%s %s no longer waits on an answer (it is %s); your reply changed nothing.", marker, who, t.ID, t.State)
}

// oneLine is s on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// quote is s as a markdown quote: the agent's words, never markup of bh's.
func quote(s string) string {
	return "> " + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n> ")
}
