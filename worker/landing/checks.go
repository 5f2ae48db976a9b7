package landing

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
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

// Checker runs a task's checks in its worktree.
type Checker struct {
	By    string        // who runs them, as the history records it ("worker": the worker)
	Limit time.Duration // each check's timeout (checkTimeout)
	// Run starts one command in the task's worktree, sandboxed as its
	// agent is: code the agent may have written.
	Run func(context.Context, proc.Cmd) (proc.Result, error)
	// Step tells what runs now; TakenBack is the cause ctx ends with
	// when a human took the task back.
	Step      func(string)
	TakenBack error
}

// Check runs cmds in the task's worktree, on the branch's tip as it
// would land, one after another until one fails, each for at most
// c.Limit. It returns the round's events, the last of them failed when
// one did (a check that timed out fails). A check that ctx ends (the
// worker's stop, bh stop) is an error wrapping ctx's cause: the landing
// is journaled and runs again on restart. started, if set, is told the
// check's process group.
func (c Checker) Check(ctx context.Context, id, target string, cmds []string, round int, started func(int)) ([]task.Event, error) {
	var evs []task.Event
	for _, cmd := range cmds {
		ev, err := c.run(ctx, id, target, cmd, proc.Cmd{Argv: []string{"sh", "-c", cmd}, Started: started}, round)
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
		if ev.ExitCode != 0 {
			break
		}
	}
	return evs, nil
}

// run runs one check, cmd as its history names it, c's Argv (and what
// else it gives) in the task's worktree.
func (c Checker) run(ctx context.Context, id, target, cmd string, pc proc.Cmd, round int) (task.Event, error) {
	if ctx.Err() != nil { // stopped before it started: not run at all
		return task.Event{}, c.stopped(ctx, id, cmd)
	}
	c.Step("check: " + cmd)
	out := proc.NewCapWriter(checkOutput, checkOutput/2)
	pc.Env = append(pc.Env, "BH_TARGET="+target)
	pc.Stdout, pc.Stderr, pc.Timeout = out, out, c.Limit
	res, err := c.Run(ctx, pc)
	var stopped *proc.StoppedError
	switch {
	case ctx.Err() != nil:
		return task.Event{}, c.stopped(ctx, id, cmd)
	case errors.As(err, &stopped):
		res.ExitCode = -1
		out.Write([]byte("\n(bh: the check " + err.Error() + ", checkTimeout in .bh/config.yaml)"))
	case err != nil:
		return task.Event{}, fmt.Errorf("%s: check %q: %w", id, cmd, err)
	}
	ev := task.Event{Kind: task.EventCheck, By: c.By, Command: cmd, ExitCode: res.ExitCode,
		Took: res.Duration.Round(time.Millisecond), Round: round,
		Output: tailString(strings.TrimSpace(string(bytes.ToValidUTF8(out.Bytes(), nil))), checkTail)}
	ev.Text = checkText(ev)
	return ev, nil
}

// stopped is the error of a check ctx ended, wrapping its cause:
// c.TakenBack when its task was taken back (bh stop).
func (c Checker) stopped(ctx context.Context, id, cmd string) error {
	cause, why := context.Cause(ctx), "with "+c.By // bh land
	switch {
	case c.TakenBack != nil && errors.Is(cause, c.TakenBack):
		why = "as the task was taken back"
	case c.By == "worker":
		why = "with the worker"
	}
	return fmt.Errorf("%s: check %q stopped %s: %w", id, cmd, why, cause)
}

// checkText is a check's line in the history, as bh show, bh log and the
// web page print it.
func checkText(ev task.Event) string {
	return fmt.Sprintf("round %d: %s %s in %s", ev.Round, ev.Command, ending.Failure(ev), ev.Took)
}

func tailString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
