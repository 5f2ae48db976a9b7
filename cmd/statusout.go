package cmd

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
)

// printStatus writes bh status for a reader: the fields that matter now,
// the questions waiting, then what to do next.
func printStatus(io *IOStreams, now time.Time, v statusView) {
	w := io.Out
	fmt.Fprintf(w, "%s  %s\n", io.Cyan(v.ID), io.Bold(v.Title))
	state := ui.StateIcon(io, v.State) + " " + ui.PaintState(io, v.State, string(v.State))
	if v.WaitingSince != nil {
		state += ", waiting " + task.ShortDur(now.Sub(*v.WaitingSince))
	} else if !v.Since.IsZero() {
		state += " for " + task.ShortDur(now.Sub(v.Since))
	}
	rows := [][]string{{io.Faint("state:"), state}}
	field := func(k, val string) {
		if val != "" {
			rows = append(rows, []string{io.Faint(k + ":"), val})
		}
	}
	field("agent", v.Agent)
	field("session", v.SessionID)
	field("check round", v.CheckRound)
	if v.Measures != nil {
		field("measured", v.Measures.Text())
	}
	if l := v.Lease; l != nil {
		field("worker", fmt.Sprintf("%s (pid %d on %s), heartbeat %s ago", l.Worker, l.PID, l.Host,
			task.ShortDur(time.Duration(l.HeartbeatAgeSeconds)*time.Second)))
	}
	if st := v.LastStep; st != nil {
		field("last step", fmt.Sprintf("%s (%s ago)", st.Step, task.ShortDur(now.Sub(st.At))))
	}
	if p := v.Parked; p != nil {
		field("parked", fmt.Sprintf("%s (%.12s)", p.Ref, p.Commit))
	} else {
		field("parked", "none")
	}
	policyFields(io, field, v.Gate, v.Human, v.HumanTimeout, v.OnTimeout, v.NeedsReview)
	ui.PrintTable(w, rows)
	section(io, "summary", v.Summary)
	if len(v.Questions) > 0 {
		head := "waiting on your answer"
		if len(v.Questions) > 1 {
			head = fmt.Sprintf("waiting on %d answers", len(v.Questions))
		}
		fmt.Fprintf(w, "\n%s\n", io.Bold(head))
		for _, q := range v.Questions {
			first := "  ❓ "
			if len(v.Questions) > 1 {
				first = fmt.Sprintf("  %d. ", q.Number)
			}
			if q.ID != "" {
				q.Question.Question += " (" + q.ID + ")"
			}
			ui.PrintQuestionAs(io, now, q.Question, first, "  ")
		}
	}
	fmt.Fprintf(w, "\n%s\n", io.Bold("next"))
	for _, n := range v.Next {
		fmt.Fprintf(w, "  %s\n", n)
	}
}
