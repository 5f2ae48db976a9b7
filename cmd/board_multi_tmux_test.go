package cmd

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// A task that asks several questions, answered on bh board: its approval
// (a choice of yes, no or skip, since any may be left for later) takes y
// as the hint says; a question in words starts from its default, which
// enter takes as it is.
func TestBoardMultiQuestionKeysInTmux(t *testing.T) {
	dir := boardRepo(t, `match Plan the release
print {"status":"needs_input","summary":"two things","questions":[{"question":"Ship the release?","type":"approval"},{"question":"Which day?","type":"freeform","default":"next Monday"}]}
`)
	id := strings.TrimSpace(bhE2E(t, dir, "add", "Plan the release"))
	bhE2E(t, dir, "worker", "--once")

	term := newTmuxPane(t, dir, "bh board; echo EXITED $?; sleep 30")
	term.waitFor("› " + id)
	term.keys("Enter")
	p := term.waitFor("Skip for now")
	if !strings.Contains(p, "y yes · n no · s skip for now") {
		t.Errorf("the approval's keys are not said:\n%s", p)
	}
	term.keys("y")
	term.waitFor("Comment for the agent (optional)")
	term.keys("Enter")
	p = term.waitFor("Which day?")
	if !strings.Contains(p, "next Monday") {
		t.Errorf("the question in words does not start from its default:\n%s", p)
	}
	term.keys("Enter")
	term.waitFor("answered " + id)
	tk := bhTask(t, dir, id)
	var got []string
	for _, q := range tk.Questions {
		got = append(got, strings.Join(q.Answer, ","))
	}
	if tk.State != task.Open || strings.Join(got, "|") != "yes|next Monday" {
		t.Errorf("%s %s, answers %q; want open with yes|next Monday", id, tk.State, got)
	}
	term.keys("q")
	term.waitFor("EXITED 0")
}
