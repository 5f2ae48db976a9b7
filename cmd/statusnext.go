package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/landing"
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
		var out []string
		for _, d := range t.DependsOn {
			dep, err := get(d)
			var nf *task.NotFoundError
			switch {
			case errors.As(err, &nf):
				out = append(out, "it waits for "+d+", which does not exist: bh edit "+id+" to drop it")
			case err != nil:
				out = append(out, "it waits for "+d+", which bh cannot read: bh show "+d)
			case dep.State != task.Closed:
				out = append(out, "it waits for "+d+" ("+string(dep.State)+") to be closed")
			}
		}
		if len(out) == 0 {
			out = append(out, "it is ready: run bh worker to start it")
		}
		return out
	case task.InProgress:
		if t.Lease == nil {
			return []string{"no worker holds it: run bh worker, which recovers it"}
		}
		return []string{"a worker is running it; to stop it: bh stop " + id + ` --reason "..."`}
	case task.InReview:
		url, rounds := landing.PullRequest(t)
		return []string{fmt.Sprintf("its pull request %s is in review (feedback round %d); the worker polls it, "+
			"and so does bh sync: feedback resumes its session, a merge closes it", url, rounds)}
	case task.Blocked:
		return []string{"once what blocks it is solved: bh reopen " + id}
	case task.Deferred:
		switch {
		case v.Parked != nil:
			return []string{"bh reopen " + id + ": the worker resumes its session with its parked work"}
		case t.SessionID != "":
			return []string{"bh reopen " + id + ": the worker resumes its session"}
		}
		return []string{"bh reopen " + id + ": the worker starts it"}
	case task.Failed:
		return []string{"to try again: bh reopen " + id}
	}
	return []string{"nothing: it is closed"}
}
