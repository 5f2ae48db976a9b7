package cmd

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/ending"
)

// gated writes a completion held for approval: the agent's summary, then
// why it waits and what it changed (the approval question's context).
func (p *progress) gated(e worker.Event) {
	head := fmt.Sprintf("%s %s awaiting approval", p.io.Magenta(ui.ApprovalIcon), p.io.Cyan(e.Task))
	if e.Summary != "" {
		head += " — " + e.Summary
	}
	fmt.Fprintln(p.w, head)
	for _, l := range strings.Split(p.gateContext(e), "\n") {
		if strings.TrimSpace(l) != "" {
			fmt.Fprintf(p.w, "  %s\n", strings.TrimPrefix(strings.TrimRight(l, " "), " "))
		}
	}
}

// gateContext is the pending approval question's context without the
// summary the head line already shows; "" when the task cannot be read.
func (p *progress) gateContext(e worker.Event) string {
	if p.lookup == nil {
		return ""
	}
	t, err := p.lookup(e.Task)
	if err != nil {
		return ""
	}
	ctx := ""
	for _, q := range t.Questions {
		if q.Gate && q.Status == task.QuestionPending {
			ctx = q.Context
		}
	}
	ctx = strings.TrimSpace(ctx)
	if s := strings.TrimSpace(e.Summary); s != "" {
		ctx = strings.TrimSpace(strings.TrimPrefix(ctx, s))
	}
	return ctx
}

// timeoutDone says what a task's onTimeout policy did.
var timeoutDone = map[ending.Outcome]string{
	ending.TimeoutFailed:   "failed",
	ending.TimeoutDeferred: "deferred",
	ending.TimeoutDefaults: "resumed with defaults (marked for review)",
	ending.TimeoutReminded: "reminded again",
}

// expired writes what became of a task whose questions nobody answered.
func (p *progress) expired(e worker.Event) {
	io, w := p.io, p.w
	why, _, _ := strings.Cut(e.Summary, ": ")
	if strings.TrimSpace(why) == "" {
		why = "no answer in time"
	}
	done := cmp.Or(timeoutDone[e.Outcome], string(e.Outcome))
	fmt.Fprintf(w, "%s %s: %s — %s\n", io.Yellow("⌛"), io.Cyan(e.Task), why, done)
	switch e.Outcome {
	case ending.TimeoutReminded:
		if e.Question != "" {
			fmt.Fprintf(w, "  Question: %s\n", io.Bold(ui.IndentLines(e.Question, "  ")))
		}
		p.answerWith(e.Task)
	case ending.TimeoutFailed:
		fmt.Fprintf(w, "  %s\n", io.Faint("to try again: bh reopen "+e.Task))
	case ending.TimeoutDeferred:
		fmt.Fprintf(w, "  %s\n", io.Faint("bh reopen "+e.Task+" brings it back"))
	}
}

func (p *progress) questions(e worker.Event) {
	for _, q := range e.Questions {
		fmt.Fprintf(p.w, "  Question: %s\n", p.io.Bold(ui.IndentLines(q, "  ")))
	}
}

// answerWith writes how to answer the questions task id waits on. When the
// task cannot be read it names bh respond alone, which asks each question
// on a terminal, rather than flags that may not fit.
func (p *progress) answerWith(id string) {
	lines := []string{"answer with: bh respond " + task.ShellQuote(id)}
	if p.lookup != nil {
		if t, err := p.lookup(id); err == nil && len(t.Pending()) > 0 {
			lines = answerWith(t, "")
		}
	}
	for _, l := range lines {
		fmt.Fprintf(p.w, "  %s\n", p.io.Faint(l))
	}
}
