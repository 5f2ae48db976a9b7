package cmd

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
)

// Late answers: every question times out first (its onTimeout policy
// applied as the worker does, two hours on by an injected clock), then bh respond answers it and the worker resumes the agent with
// the late answer, byte for byte. Under default, the late answer replaces
// the default; a question left unanswered keeps its default.
func TestAnswerMatrixLate(t *testing.T) {
	// withDefault gives each question of asks a default, for onTimeout: default.
	withDefault := func(asks string) string {
		for q, d := range map[string]string{`"Ship it?"`: "yes", `"Which database?"`: "PostgreSQL", `"Which regions?"`: "us",
			`"How should the config look?"`: "as you see fit"} {
			asks = strings.ReplaceAll(asks, `{"question":`+q, `{"default":"`+d+`","question":`+q)
		}
		return asks
	}
	const timedOut = "default, no answer within 1h" // what a default's answer says
	var rows []matrixRow
	for _, policy := range []string{task.OnTimeoutFail, task.OnTimeoutDefer, task.OnTimeoutDefault} {
		row := func(kind, asks string, give func(*matrix, string) given, want ...task.Question) matrixRow {
			if policy == task.OnTimeoutDefault {
				asks = withDefault(asks)
			}
			return matrixRow{name: "late-" + policy + "/" + kind, asks: asks, give: give, want: want,
				add: []string{"--human-timeout", "1h", "--on-timeout", policy}}
		}
		several := row("several", asksSeveral, inTurn(args("ID", "--no", "--choice", "SQLite"), args("ID", "--question", "3", tricky)),
			said([]string{"no"}, ""), said([]string{"SQLite"}, ""), text(tricky))
		if policy == task.OnTimeoutDefault { // one answer takes the task up again: the rest keep their defaults
			several = row("several", asksSeveral, args("ID", "--question", "2", "--choice", "SQLite", tricky),
				said([]string{"yes"}, timedOut), said([]string{"SQLite"}, tricky), said([]string{"as you see fit"}, timedOut))
		}
		rows = append(rows,
			row("yes", asksApproval, args("ID", "--yes"), said([]string{"yes"}, "")),
			row("no+feedback", asksApproval, args("ID", "--no", tricky), said([]string{"no"}, tricky)),
			row("choice", asksChoice, args("ID", "--choice", "SQLite"), said([]string{"SQLite"}, "")),
			row("choice+comment", asksChoice, args("ID", "--choice", "SQLite", tricky), said([]string{"SQLite"}, tricky)),
			row("multi", asksMulti, args("ID", "--choice", "eu", "--choice", "asia"), said([]string{"eu", "asia"}, "")),
			row("other", asksChoice, args("ID", "--other", tricky), said([]string{"other"}, tricky)),
			row("freeform", asksWords, args("ID", tricky), text(tricky)),
			several)
	}
	rows = sampled(rows)
	m := newMatrix(t, rows)
	s, err := store.Find(m.dir)
	if err != nil {
		t.Fatal(err)
	}
	expireAt(t, s, time.Now().Add(2*time.Hour))
	states := map[string]task.State{task.OnTimeoutFail: task.Failed, task.OnTimeoutDefer: task.Deferred,
		task.OnTimeoutDefault: task.Open}
	for _, r := range rows {
		policy := strings.TrimPrefix(r.name[:strings.Index(r.name, "/")], "late-")
		if got := bhTask(t, m.dir, m.ids[r.name]).State; got != states[policy] {
			t.Fatalf("%s: %s after the timeout, want %s", r.name, got, states[policy])
		}
	}
	m.check(rows)
}

// expireAt applies each task's onTimeout policy to its questions expired
// by now, as the worker's timeout scan does.
func expireAt(t *testing.T, s *store.Store, now time.Time) {
	tasks, _, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range tasks {
		_, err := s.Update(tk.ID, func(tk *task.Task) error {
			due := ending.DueQuestions(tk, now)
			if len(due) == 0 {
				return errNothingDue // not written
			}
			p, err := config.Policy(tk, s.Config)
			if err != nil {
				return err
			}
			_, err = ending.Expire(tk, p, due, now.Truncate(time.Second), "worker", "no answer within 1h") // every row's --human-timeout
			return err
		})
		if err != nil && !errors.Is(err, errNothingDue) {
			t.Fatal(err)
		}
	}
}

var errNothingDue = errors.New("nothing expired")
