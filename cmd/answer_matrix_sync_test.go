package cmd

import (
	"path/filepath"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// Answers given in another clone: the worker's repository syncs its
// questions to a bare remote, a second clone answers them there with bh
// respond, syncs, and the worker's repository syncs again before the
// worker resumes each agent with the answer as given in the clone.
func TestAnswerMatrixSynced(t *testing.T) {
	rows := []matrixRow{
		{name: "synced/yes", asks: asksApproval, give: args("ID", "--yes"), want: []task.Question{said([]string{"yes"}, "")}},
		{name: "synced/no+feedback", asks: asksApproval, give: args("ID", "--no", tricky), want: []task.Question{said([]string{"no"}, tricky)}},
		{name: "synced/choice", asks: asksChoice, give: args("ID", "--choice", "SQLite"), want: []task.Question{said([]string{"SQLite"}, "")}},
		{name: "synced/choice+comment", asks: asksChoice, give: piped(tricky, "ID", "--choice", "SQLite", "-"),
			want: []task.Question{said([]string{"SQLite"}, tricky)}},
		{name: "synced/multi", asks: asksMulti, give: args("ID", "--choice", "eu", "--choice", "asia"), want: []task.Question{said([]string{"eu", "asia"}, "")}},
		{name: "synced/other", asks: asksChoice, give: args("ID", "--other", tricky), want: []task.Question{said([]string{"other"}, tricky)}},
		{name: "synced/freeform", asks: asksWords, give: args("ID", tricky), want: []task.Question{text(tricky)}},
		{name: "synced/several", asks: asksSeveral, give: inTurn(args("ID", "--question", "2", "--choice", "SQLite", oneLine),
			args("ID", "--question", "1", "--no", tricky), args("ID", "--question", "3", tricky)),
			want: []task.Question{said([]string{"no"}, tricky), said([]string{"SQLite"}, oneLine), text(tricky)}},
	}
	rows = sampled(rows)
	m := newMatrix(t, rows)
	remote, clone := filepath.Join(m.root, "remote.git"), filepath.Join(m.root, "clone")
	gitE2E(t, m.root, "init", "-q", "--bare", "-b", "main", remote)
	gitE2E(t, m.dir, "remote", "add", "origin", remote)
	bhE2E(t, m.dir, "sync")
	gitE2E(t, m.root, "clone", "-q", remote, clone)
	gitE2E(t, clone, "config", "user.name", "bh clone")
	gitE2E(t, clone, "config", "user.email", "clone@example.com")
	m.answerDir = clone
	m.synced = func() {
		bhE2E(t, clone, "sync")
		bhE2E(t, m.dir, "sync")
		for _, r := range rows {
			if st := bhTask(t, m.dir, m.ids[r.name]).State; st != task.Open {
				t.Errorf("%s: %s once synced, want open", r.name, st)
			}
		}
	}
	m.check(rows)
}
