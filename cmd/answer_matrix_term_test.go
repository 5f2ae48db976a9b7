package cmd

import (
	"path/filepath"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// bh respond --all on a terminal: one walk through every waiting task, in
// priority order (the rows' order), the picker's answers read as lines.
func TestAnswerMatrixAll(t *testing.T) {
	all := func(m *matrix, _ string) given {
		m.editor(tricky + "\n") // both questions in words, in turn
		return m.respond("", "2\n"+oneLine+"\n"+"1\n4\n0\n"+oneLine+"\n"+"1\n\n2\n\n",
			[]string{"BH_FORCE_TTY=1", "ACCESSIBLE=1"}, "--all")
	}
	rows := []matrixRow{
		{name: "all/no+feedback", asks: asksApproval, give: all, want: []task.Question{said([]string{"no"}, oneLine)}},
		{name: "all/multi+other", asks: asksMulti, want: []task.Question{said([]string{"eu", "other"}, oneLine)}},
		{name: "all/several", asks: asksSeveral, want: []task.Question{said([]string{"yes"}, ""), said([]string{"SQLite"}, ""), text(tricky)}},
		{name: "all/freeform", asks: asksWords, want: []task.Question{text(tricky)}},
	}
	newMatrix(t, rows).check(rows)
}

// The board, in tmux as a person would use it: a choice answered with
// Other and words typed on the keyboard; a choice with a comment typed in
// the field that follows it.
func TestAnswerMatrixBoard(t *testing.T) {
	board := func(field, words string) func(*matrix, string) given {
		return func(m *matrix, id string) given {
			term := newTmuxPane(m.t, m.dir, "NO_COLOR=1 EDITOR="+filepath.Join(m.root, "editor.sh")+" bh board; echo EXITED $?; sleep 30")
			term.waitFor("Which database?")
			term.keys("Enter")
			term.waitFor("Other…")
			if field == "Your answer" {
				term.keys("Down")
			}
			term.keys("Down", "Enter")
			term.waitFor(field)
			term.run("send-keys", "-t", "bh", "-l", words)
			term.keys("Enter")
			term.waitFor("answered " + id + ": it is open again")
			term.keys("q")
			term.waitFor("EXITED 0")
			return given{}
		}
	}
	rows := []matrixRow{
		{name: "board/other", asks: asksChoice, give: board("Your answer", oneLine), want: []task.Question{said([]string{"other"}, oneLine)}},
		{name: "board/choice+comment", asks: asksChoice, give: board("Comment for the agent", oneLine),
			want: []task.Question{said([]string{"SQLite"}, oneLine)}},
	}
	findTmux(t)
	newMatrix(t, rows).check(rows)
}
