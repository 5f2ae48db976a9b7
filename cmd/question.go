package cmd

import (
	"github.com/bh-tracker/bh/task"
)

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
