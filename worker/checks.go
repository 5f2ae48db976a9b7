package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
)

// What of a check's output is kept: the run's capped copy, and the tail
// that goes into the task's history, the agent's prompt and the question.
const (
	checkOutput = 64 << 10
	checkTail   = 3000
)

func isCheckQuestion(q *task.Question) bool {
	return q.Header == ending.ChecksTitle && q.Kind() == task.ChoiceQuestion
}

// check runs the task's checks in r's worktree (inTree: sandboxed as the
// agent is), on the branch's tip as it would land, one after another
// until one fails, each for at most checkTimeout. It returns the round's
// events, the last of them failed when one did (a check that timed out
// fails). A check that ctx ends (the worker's stop, bh stop) is an error
// wrapping ctx's cause: the landing is journaled and runs again on
// restart. started, if set, is told the check's process group.
func (w *worker) check(ctx context.Context, r *run, cmds []string, round int, started func(int)) ([]task.Event, error) {
	limit := w.s.Config.CheckLimit()
	var evs []task.Event
	for _, cmd := range cmds {
		if ctx.Err() != nil { // stopped before it started: not run at all
			return nil, w.checkStopped(ctx, r.t.ID, cmd)
		}
		w.step(r.t.ID, "check: "+cmd)
		out := proc.NewCapWriter(checkOutput, checkOutput/2)
		res, err := w.inTree(ctx, r, proc.Cmd{Argv: []string{"sh", "-c", cmd}, Env: []string{"BH_TARGET=" + r.j.Target},
			Stdout: out, Stderr: out, Timeout: limit, Started: started})
		var stopped *proc.StoppedError
		switch {
		case ctx.Err() != nil:
			return nil, w.checkStopped(ctx, r.t.ID, cmd)
		case errors.As(err, &stopped):
			res.ExitCode = -1
			out.Write([]byte("\n(bh: the check " + err.Error() + ", checkTimeout in .bh/config.yaml)"))
		case err != nil:
			return nil, fmt.Errorf("%s: check %q: %w", r.t.ID, cmd, err)
		}
		ev := task.Event{Kind: task.EventCheck, By: w.opt.Name, Command: cmd, ExitCode: res.ExitCode,
			Took: res.Duration.Round(time.Millisecond), Output: tail(out.Bytes(), checkTail), Round: round}
		ev.Text = checkText(ev)
		evs = append(evs, ev)
		if res.ExitCode != 0 {
			break
		}
	}
	return evs, nil
}

// checkStopped is the error of a check ctx ended, wrapping its cause:
// errNotOurs when its task was taken back (bh stop).
func (w *worker) checkStopped(ctx context.Context, id, cmd string) error {
	cause, why := context.Cause(ctx), "with "+w.opt.Name // bh land
	switch {
	case errors.Is(cause, errNotOurs):
		why = "as the task was taken back"
	case w.opt.Name == "worker":
		why = "with the worker"
	}
	return fmt.Errorf("%s: check %q stopped %s: %w", id, cmd, why, cause)
}

// failedCheck reads t's history for the check rounds under way: the last
// failed check, unless a landing or the checks question came after it
// (which start the rounds over), and whether an agent ran since.
func failedCheck(t *task.Task) (failed *task.Event, ranSince bool) {
	for i := range t.History {
		switch ev := &t.History[i]; {
		case ev.Kind == task.EventCheck && ev.ExitCode != 0:
			failed, ranSince = ev, false
		case ev.Kind == task.EventCommit:
			failed = nil
		case ev.Kind == task.EventInputRequested && ev.QuestionID != "":
			if q := findQuestion(t, ev.QuestionID); q != nil && isCheckQuestion(q) {
				failed = nil
			}
		case ev.Kind == task.EventRunStarted:
			ranSince = true
		}
	}
	return failed, ranSince
}

// checkRound is the round the next checks of t are in: one past the last
// failed round, or the first.
func checkRound(t *task.Task) int {
	if ev, _ := failedCheck(t); ev != nil {
		return ev.Round + 1
	}
	return 1
}

// checkText is a check's line in the history, as bh show, bh log and the
// web page print it.
func checkText(ev task.Event) string {
	return fmt.Sprintf("round %d: %s %s in %s", ev.Round, ev.Command, checkFailure(ev), ev.Took)
}

// checkFailure says how a check ended: "passed", or how it failed.
func checkFailure(ev task.Event) string {
	switch ev.ExitCode {
	case 0:
		return "passed"
	case -1:
		return "was killed (it timed out, or a signal ended it)"
	}
	return fmt.Sprintf("failed with exit status %d", ev.ExitCode)
}

// CheckRound says where t's checks stand while a failed one is being
// fixed, such as "round 2 of 3 (round 1: go test ./... exited 1)"; ""
// when no check is failing.
func CheckRound(t *task.Task, rounds int) string {
	ev, _ := failedCheck(t)
	asked := false
	for i := range t.Questions {
		if q := &t.Questions[i]; isCheckQuestion(q) && q.Status == task.QuestionPending {
			asked = true
		}
	}
	for i := len(t.History) - 1; ev == nil && asked && i >= 0; i-- {
		if t.History[i].Kind == task.EventCheck {
			ev = &t.History[i] // the failed check the human is asked about
		}
	}
	if ev == nil {
		return ""
	}
	if asked {
		return fmt.Sprintf("round %d failed (%s exited %d): a human decides", ev.Round, ev.Command, ev.ExitCode)
	}
	return fmt.Sprintf("round %d of %d (round %d: %s exited %d)", ev.Round+1, rounds, ev.Round, ev.Command, ev.ExitCode)
}
