package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker"
)

// nextSteps says what to do about t now.
func nextSteps(t *task.Task, v statusView, get func(string) (*task.Task, error)) []string {
	id := t.ID
	switch t.State {
	case task.AwaitingInput:
		out := answerSteps(t)
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
		url, rounds := worker.PullRequest(t)
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

// answerSteps are the commands that answer t's questions.
func answerSteps(t *task.Task) []string {
	var out []string
	for _, l := range answerWith(t, "") {
		out = append(out, strings.TrimSpace(l)) // data too (--json): no alignment
	}
	return out
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
		case dep.State != task.Closed:
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
