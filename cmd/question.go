package cmd

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task"
)

// askedAt is when the current question was asked: its input.requested
// event, or failing that the last update.
func askedAt(t *task.Task) time.Time {
	if e, ok := t.LastAsked(); ok {
		return e.At
	}
	return t.UpdatedAt
}

// expiryText says when a question expires: "expires in 3h", "expired 5m ago".
func expiryText(now, at time.Time) string {
	if at.After(now) {
		return "expires in " + shortDur(at.Sub(now))
	}
	return "expired " + shortDur(now.Sub(at)) + " ago"
}

// shortDur writes a duration the way people say it: 45s, 12m, 2h, 3d.
func shortDur(d time.Duration) string {
	const day = 24 * time.Hour
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < day:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/day))
}

// kindNote is how a question is answered, shown beside it: "[yes/no]".
func kindNote(q task.Question) string {
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

// answerWith says how to answer what t waits on, a line per command: for
// each question the command that answers it, then the other way to (a
// rejection with feedback, a choice in one's own words). Each line holds
// one command, whole, so that it can be copied as it is. repo is as
// task.RespondCommand takes it.
func answerWith(t *task.Task, repo string) []string {
	var out []string
	for _, q := range t.Numbered() {
		cmds := task.RespondCommands(t, q.Q, repo)
		out = append(out, "answer with: "+cmds[0])
		for _, c := range cmds[1:] {
			out = append(out, "         or: "+c)
		}
	}
	return out
}
