package cmd

import (
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

// expiryText and shortDur are the task package's, shared with bh serve.
func expiryText(now, at time.Time) string { return task.ExpiryText(now, at) }

func shortDur(d time.Duration) string { return task.ShortDur(d) }

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
