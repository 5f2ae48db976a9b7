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
		if ctx.Err() != nil { // stopped before it started: not run at all
			return nil, c.stopped(ctx, id, cmd)
		}
		c.Step("check: " + cmd)
		out := proc.NewCapWriter(checkOutput, checkOutput/2)
		res, err := c.Run(ctx, proc.Cmd{Argv: []string{"sh", "-c", cmd}, Env: []string{"BH_TARGET=" + target},
			Stdout: out, Stderr: out, Timeout: c.Limit, Started: started})
		var stopped *proc.StoppedError
		switch {
		case ctx.Err() != nil:
			return nil, c.stopped(ctx, id, cmd)
		case errors.As(err, &stopped):
			res.ExitCode = -1
			out.Write([]byte("\n(bh: the check " + err.Error() + ", checkTimeout in .bh/config.yaml)"))
		case err != nil:
			return nil, fmt.Errorf("%s: check %q: %w", id, cmd, err)
		}
		ev := task.Event{Kind: task.EventCheck, By: c.By, Command: cmd, ExitCode: res.ExitCode,
			Took: res.Duration.Round(time.Millisecond), Round: round,
			Output: tailString(strings.TrimSpace(string(bytes.ToValidUTF8(out.Bytes(), nil))), checkTail)}
		ev.Text = checkText(ev)
		evs = append(evs, ev)
		if res.ExitCode != 0 {
			break
		}
	}
	return evs, nil
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

// FailedCheck reads t's history for the check rounds under way: the last
// failed check, unless a landing or the checks question came after it
// (which start the rounds over), and whether an agent ran since.
func FailedCheck(t *task.Task) (failed *task.Event, ranSince bool) {
	for i := range t.History {
		switch ev := &t.History[i]; {
		case ev.Kind == task.EventCheck && ev.ExitCode != 0:
			failed, ranSince = ev, false
		case ev.Kind == task.EventCommit:
			failed = nil
		case ev.Kind == task.EventInputRequested && ev.QuestionID != "":
			if q := t.QuestionByID(ev.QuestionID); q != nil && IsCheckQuestion(q) {
				failed = nil
			}
		case ev.Kind == task.EventRunStarted:
			ranSince = true
		}
	}
	return failed, ranSince
}

// Round is the round the next checks of t are in: one past the last
// failed round, or the first.
func Round(t *task.Task) int {
	if ev, _ := FailedCheck(t); ev != nil {
		return ev.Round + 1
	}
	return 1
}

// ChecksAnswered reports whether a human answered t's checks question
// after its last check ran.
func ChecksAnswered(t *task.Task) bool {
	answered := false
	for _, ev := range t.History {
		switch {
		case ev.Kind == task.EventCheck:
			answered = false
		case ev.Kind == task.EventInputReceived && ev.QuestionID != "":
			if q := t.QuestionByID(ev.QuestionID); q != nil && IsCheckQuestion(q) {
				answered = true
			}
		}
	}
	return answered
}

// checkText is a check's line in the history, as bh show, bh log and the
// web page print it.
func checkText(ev task.Event) string {
	return fmt.Sprintf("round %d: %s %s in %s", ev.Round, ev.Command, Failure(ev), ev.Took)
}

// Failure says how a check ended: "passed", or how it failed.
func Failure(ev task.Event) string {
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
	ev, _ := FailedCheck(t)
	asked := false
	for i := range t.Questions {
		if q := &t.Questions[i]; IsCheckQuestion(q) && q.Status == task.QuestionPending {
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

func tailString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// IsLandQuestion reports whether q is a landing question.
func IsLandQuestion(q *task.Question) bool {
	return q.Header == ending.LandTitle && q.Kind() == task.ChoiceQuestion
}

// Question asks what to do with finished work that git would not land
// over the user's uncommitted changes.
func Question(id, target, branch string) task.Question {
	return task.Question{Header: ending.LandTitle, Type: task.ChoiceQuestion, Default: ending.LandKeep,
		Question: fmt.Sprintf("%s is done, but landing it on %s would overwrite your uncommitted changes. "+
			"Commit or stash them and answer %q, or answer %q to leave the work on branch %s (bh land %s later).",
			id, target, ending.LandNow, ending.LandKeep, branch, id),
		Options: []task.Option{
			{Label: ending.LandNow, Description: "land it now: your changes are committed or stashed"},
			{Label: ending.LandKeep, Description: "keep it on branch " + branch + " for review"},
		}}
}

// SignQuestion asks what to do with finished work whose commit git could
// not sign as the user's config asks.
func SignQuestion(id, target, branch string) task.Question {
	return task.Question{Header: ending.LandTitle, Type: task.ChoiceQuestion, Default: ending.LandKeep,
		Question: fmt.Sprintf("%s is done, but git could not sign its commit as your git config asks (commit.gpgsign). "+
			"Make your signing key usable and answer %q (or run bh land %s), or answer %q to leave the work on branch %s.",
			id, ending.LandNow, id, ending.LandKeep, branch),
		Options: []task.Option{
			{Label: ending.LandNow, Description: "land it now on " + target + ": the key signs again"},
			{Label: ending.LandKeep, Description: "keep it on branch " + branch + " for review"},
		}}
}

// Pending is t's landing question, or the question of a commit hook's
// refusal, while it waits on it: bh land answers either "land" (for a
// hook: commit again, the hooks running).
func Pending(t *task.Task) *task.Question {
	for i := range t.Questions {
		if q := &t.Questions[i]; (IsLandQuestion(q) || isHookQuestion(q)) && q.Status == task.QuestionPending {
			return q
		}
	}
	return nil
}

// SubNote is why work that changed files inside a submodule is not
// landed: its commits would live in the task's worktree alone, and bh
// cannot push them to the submodule's repository.
const SubNote = "bh does not land changes inside a submodule"

// SubQuestion asks what to do with work that changed files inside
// submodules; dir is the worktree that keeps them.
func SubQuestion(id, branch, dir string, subs []string) task.Question {
	named := strings.Join(subs, "/, ") + "/"
	return task.Question{Header: ending.LandTitle, Type: task.ChoiceQuestion, Default: ending.LandKeep,
		Question: fmt.Sprintf("%s changed files inside submodule %s: bh does not land submodule changes "+
			"(their commits would live only in its worktree). They are kept in %s: commit and push them "+
			"in the submodule's own repository if you want them, then answer %q to land the rest without them, "+
			"or %q to keep the rest on branch %s.", id, named, dir, ending.LandNow, ending.LandKeep, branch),
		Options: []task.Option{
			{Label: ending.LandNow, Description: "land the work outside " + named + " without the changes inside"},
			{Label: ending.LandKeep, Description: "keep the work outside " + named + " on branch " + branch},
		}}
}

// IsCheckQuestion reports whether q is the checks question.
func IsCheckQuestion(q *task.Question) bool {
	return q.Header == ending.ChecksTitle && q.Kind() == task.ChoiceQuestion
}
