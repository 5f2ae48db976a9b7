package cmd

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
)

// nextSteps says what to do about t now.
func nextSteps(t *task.Task, v statusView, get func(string) (*task.Task, error)) []string {
	id := t.ID
	switch t.State {
	case task.AwaitingInput:
		var out []string
		for _, l := range answerWith(t, "") {
			out = append(out, strings.TrimSpace(l)) // data too (--json): no alignment
		}
		if len(t.Pending()) > 1 {
			out = append(out, "or answer them in turn on a terminal: bh respond "+id)
		}
		return out
	case task.Open:
		if out := waitsFor(t, get); len(out) > 0 {
			return out
		}
		return []string{"it is ready: run bh worker to start it"}
	case task.InProgress:
		if t.Lease == nil {
			return []string{"no worker holds it: run bh worker, which recovers it"}
		}
		return []string{"a worker is running it; to stop it: bh stop " + id + ` --reason "..."`}
	case task.InReview:
		url, rounds := ending.PullRequest(t)
		return []string{fmt.Sprintf("its pull request %s is in review (feedback round %d); the worker polls it, "+
			"and so does bh sync: feedback resumes its session, a merge closes it", url, rounds)}
	case task.Blocked:
		return []string{"once what blocks it is solved: bh reopen " + id}
	case task.Deferred:
		return []string{reopenStep(t, v)}
	case task.Failed:
		return []string{"to try again: bh reopen " + id}
	}
	return []string{"nothing: it is closed"}
}

// waitsFor says which of t's dependencies it still waits for.
func waitsFor(t *task.Task, get func(string) (*task.Task, error)) []string {
	var out []string
	for _, d := range t.DependsOn {
		dep, err := get(d)
		var nf *task.NotFoundError
		switch {
		case errors.As(err, &nf):
			out = append(out, "it waits for "+d+", which does not exist: bh edit "+t.ID+" to drop it")
		case err != nil:
			out = append(out, "it waits for "+d+", which bh cannot read: bh show "+d)
		case !dep.Ended():
			out = append(out, "it waits for "+d+" ("+string(dep.State)+") to be closed")
		}
	}
	return out
}

// reopenStep says what reopening the deferred task t does.
func reopenStep(t *task.Task, v statusView) string {
	switch {
	case v.Parked != nil:
		return "bh reopen " + t.ID + ": the worker resumes its session with its parked work"
	case t.SessionID != "":
		return "bh reopen " + t.ID + ": the worker resumes its session"
	}
	return "bh reopen " + t.ID + ": the worker starts it"
}

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
			ui.PrintQuestionAs(io, now, q.Question, first, "  ")
		}
	}
	fmt.Fprintf(w, "\n%s\n", io.Bold("next"))
	for _, n := range v.Next {
		fmt.Fprintf(w, "  %s\n", n)
	}
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
