package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/mcp"
	"github.com/bh-tracker/bh/prompts"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/plan"
	"github.com/bh-tracker/bh/worker/budget"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/jail"
	"github.com/bh-tracker/bh/worker/journal"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/bh-tracker/bh/worker/runlog"
	"github.com/bh-tracker/bh/worker/taskprompt"
	"github.com/google/uuid"
)

// work runs the agent on a claimed task in its worktree and ends the run.
// Only trouble the worker cannot pin on the task (git, the file system) is
// returned; the task is then back to open or left to recovery.
func (w *worker) work(kill context.Context, t *task.Task) error {
	if done, err := w.tried(t); done { // its attempts run, not it
		return err
	}
	r := &run{t: t, started: time.Now()}
	if err := w.prepare(r); err != nil {
		return w.unprepared(r, err)
	}
	if e, ok := w.decided(r); ok {
		return w.end(r, e) // a human's answer settles it: no agent runs
	}
	resume, err := w.ready(r)
	if errors.Is(err, errNotOurs) {
		return w.end(r, *lost(r))
	} else if err != nil {
		return w.release(t.ID, err)
	}
	if r.t, err = w.begin(r); errors.Is(err, errNotOurs) {
		r.t = t
		return w.end(r, *lost(r)) // stopped before its agent could start
	} else if err != nil {
		return err
	}
	r.session = r.t.SessionID
	w.report(Event{Kind: Started, Task: t.ID, Title: t.Title, Resume: resume, Session: r.session})
	out, logPath, runErr := w.session(kill, r, resume)
	// A human who stopped or changed the task meanwhile has the last word.
	if cur, err := w.s.Get(t.ID); err == nil && !w.owns(cur) {
		return w.end(r, *lost(r))
	}
	e := w.decide(r, out, runErr, kill.Err() != nil)
	e.Stats = runlog.Stats(out)
	if e.Outcome == ending.AgentError && logPath != "" {
		e.Details = "run log: " + logPath
	}
	return w.end(r, e)
}

// unprepared ends a run whose worktree could not be prepared: a setup
// that failed fails the task; other trouble hands it back, open.
func (w *worker) unprepared(r *run, err error) error {
	var se *setupError
	switch {
	case errors.As(err, &se) && r.j != nil:
		return w.end(r, ending.Decide(ending.Facts{What: ending.SetupError, Cause: se.Error()}))
	case w.stopping().Err() != nil:
		// Stopped while setting up: the task waits, open, for the next
		// start, and the worker's exit is not an error of its own.
		w.warnf("%v", w.release(r.t.ID, err))
		return nil
	}
	return w.release(r.t.ID, err)
}

// ready readies r's agent: its runner, its prompt, and its session,
// restored, or begun afresh when it cannot be (resume says which).
// errNotOurs: a human took the task back meanwhile.
func (w *worker) ready(r *run) (resume bool, err error) {
	t := r.t
	resume = t.SessionRan()
	if r.runner, r.agent, r.cfg, err = w.runnerFor(t); err != nil {
		return false, err
	}
	if r.prompt, err = taskprompt.Prompt(w.s, t, resume); err != nil {
		return false, err
	}
	if rebasing, _ := r.wt.Rebasing(); rebasing || ending.ConflictRound(t) > 1 {
		r.prompt += landing.ConflictPrompt(r.wt, r.j.Base, r.j.Target, rebasing)
	}
	had := agent.Request{Dir: r.dir(), SessionID: t.SessionID, Env: w.agentEnv(r)}
	if err := w.jail().FreshState(t.ID, r.cfg, sessionFile(r.runner, had)); err != nil {
		return false, err
	}
	if resume && !restoreSession(w.s, r.runner, t.ID, had) {
		if err := w.freshSession(r, t.SessionID); err != nil {
			return false, err
		}
		resume = false
	}
	return resume, nil
}

// session runs r's agent to its outcome, the heartbeat holding the claim
// meanwhile (the run ends early if a human takes the task back: bh stop),
// and returns it with the run log's path.
func (w *worker) session(kill context.Context, r *run, resume bool) (*agent.Outcome, string, error) {
	id := r.t.ID
	ctx, cancel := context.WithCancelCause(kill)
	defer cancel(nil)
	stopBeat := w.heartbeat(id, func() { cancel(nil) })
	if _, err := w.jail().MakeOutbox(id); err != nil { // made by the sandbox's policy, or here for a plain run
		w.warnf("%s: %v", id, err)
	}
	req := w.request(r, resume)
	req.Spent = budget.Meter(r.t, w.s.Config, cancel) // stops the run at the task's budget
	log := w.openLog(r)
	req.Live = log.Writer()
	r.head, _ = w.repo.BranchTip(r.j.Branch)
	out, runErr := w.runAgent(ctx, r.runner, req)
	if resume && errors.Is(runErr, agent.ErrSessionMissing) && ctx.Err() == nil {
		out, runErr = w.afresh(ctx, r, req)
	}
	if errors.Is(runErr, agent.ErrNoResult) && ctx.Err() == nil {
		// Prose without the result object: one more turn in the same session asks for it.
		w.step(id, "asking for the missing result object")
		nudge := req
		nudge.Prompt, nudge.Resume, nudge.SessionID = prompts.Nudge(id, r.t.Title), true, r.session
		if out, runErr = w.runAgent(ctx, r.runner, nudge); out != nil && out.SessionID != "" {
			r.session = out.SessionID
		}
	}
	stopBeat()
	runErr = budget.Caused(ctx, runErr)
	// Questions the agent asked through bh's MCP server (AskUserQuestion, a
	// permission prompt, ask_human) park the run whatever it answered; the
	// tasks it added are created.
	if qs, bad := w.jail().TakeOutbox(id); bad != nil && kill.Err() == nil {
		out, runErr = nil, bad
	} else if len(qs) > 0 && kill.Err() == nil {
		out, runErr = askedOutcome(out, qs, r.session), nil
	}
	if out != nil && out.SessionID != "" {
		r.session = out.SessionID // a resumed session may continue under a new id
	}
	w.keepSession(r, req)
	w.jail().CloseState(id, r.cfg, false)
	return out, log.Close(out, runErr), runErr
}

// afresh runs r's agent again in a fresh session with the story, its
// session restored but unloadable (claude killed in its first request).
func (w *worker) afresh(ctx context.Context, r *run, req agent.Request) (*agent.Outcome, error) {
	if err := w.freshSession(r, r.session); err != nil {
		return nil, err
	}
	r.session, req.Prompt, req.SessionID, req.Resume = r.t.SessionID, r.prompt, r.t.SessionID, false
	return w.runAgent(ctx, r.runner, req)
}

// request is what r's agent is asked: its prompt and contract, in its
// worktree, with the tools a human granted it.
func (w *worker) request(r *run, resume bool) agent.Request {
	id := r.t.ID
	req := agent.Request{Prompt: r.prompt, Dir: r.dir(), SessionID: r.session, Resume: resume, TaskID: id, Outbox: w.jail().Outbox(id),
		Env: w.agentEnv(r), Timeout: w.opt.Timeout, Started: w.started(r), Name: "bh " + id + ": " + r.t.Title,
		AllowTools: r.t.GrantedTools(), Step: func(step string) { w.step(id, step) }, Session: w.named(r),
		Launcher: r.launch, Limit: w.limits.Said, ReadOnly: plan.Planning(r.t, w.s.Config.Plan)}
	if req.ReadOnly {
		req.Launcher = jail.Planning(r.launch, r.wt.Path, r.wt.GitDir()) // setup and checks wrote; the agent may not
	}
	var err error
	if req.System, err = taskprompt.Contract(w.s, r.t); err != nil {
		w.warnf("%s: %v", id, err)
	}
	req.System = strings.TrimSpace(req.System + "\n\n" + r.cfg.System)
	return req
}

// agentEnv tells the agent (and bh commands it runs) where things are.
func (w *worker) agentEnv(r *run) []string {
	env := append([]string{"BH_WORKTREE=" + r.wt.Path, "BH_ROOT=" + w.s.Root, "BH_TARGET=" + r.j.Target,
		mcp.OutboxEnv + "=" + w.jail().Outbox(r.t.ID)}, w.opt.Env...)
	if r.t.Attempt > 0 {
		env = append(env, fmt.Sprintf("BH_ATTEMPT=%d", r.t.Attempt)) // which of the attempts side by side
	}
	return append(env, w.jail().StateEnv(r.t.ID, r.cfg)...)
}

// runAgent runs the agent under the kill context and the worker's timeout.
func (w *worker) runAgent(kill context.Context, runner agent.Runner, req agent.Request) (*agent.Outcome, error) {
	if w.opt.Timeout <= 0 {
		return runner.Run(kill, req)
	}
	ctx, cancel := context.WithTimeout(kill, w.opt.Timeout)
	defer cancel()
	out, err := runner.Run(ctx, req)
	if err != nil && kill.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		re := &agent.RunError{Reason: fmt.Sprintf("the agent timed out after %s", w.opt.Timeout), ExitCode: -1, Err: err}
		var inner *agent.RunError
		if errors.As(err, &inner) {
			re.Raw, re.Stderr = inner.Raw, inner.Stderr
		}
		err = re
	}
	return out, err
}

// begin gives the task its session (before the agent can create it) and
// records the start of the run.
func (w *worker) begin(r *run) (*task.Task, error) {
	t, err := w.s.Update(r.t.ID, func(t *task.Task) error {
		if !w.owns(t) {
			return errNotOurs
		}
		at := w.now()
		budget.Raise(t, w.s.Config) // a human's yes to going on past its budget
		if r.restored != "" {
			t.Record(at, task.Event{Kind: task.EventUnparked, By: w.opt.Name, Commit: r.restored,
				Text: "worktree recreated at " + r.j.Worktree + " from " + git.ParkRef(t.ID)})
		}
		if _, names := r.runner.(sessionNamer); t.SessionID == "" && !names {
			t.SessionID = uuid.NewString()
		}
		t.Agent = r.agent
		t.Record(at, task.Event{Kind: task.EventRunStarted, By: w.opt.Name, Session: t.SessionID, Sandbox: r.sandbox})
		return nil
	})
	if errors.Is(err, errNotOurs) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", r.t.ID, err)
	}
	return t, nil
}

// sessionNamer is an agent that names its sessions itself (codex's
// threads): a task gets its session id from the agent's first run.
type sessionNamer interface{ NamesSessions() bool }

// named writes down the session the agent names as soon as it does, so
// that a run cut short still resumes it.
func (w *worker) named(r *run) func(string) {
	return func(id string) {
		r.session = id
		if _, err := w.s.Update(r.t.ID, func(t *task.Task) error {
			if !w.owns(t) {
				return errNotOurs
			}
			t.SessionID = id
			return nil
		}); err != nil && !errors.Is(err, errNotOurs) {
			w.warnf("%s: keep the agent's session id: %v", r.t.ID, err)
		}
	}
}

// askedOutcome is the run's outcome once the agent asked through bh's MCP
// server: needs_input with those questions, its own summary kept.
func askedOutcome(out *agent.Outcome, qs []agent.Question, session string) *agent.Outcome {
	res := agent.Result{Status: agent.StatusNeedsInput, Questions: qs}
	if out != nil {
		res.Summary, res.Details, res.QuestionContext = out.Result.Summary, out.Result.Details, out.Result.QuestionContext
		return &agent.Outcome{Result: res, SessionID: cmp.Or(out.SessionID, session), Raw: out.Raw, Stderr: out.Stderr, Spend: out.Spend}
	}
	res.Summary = "asked the human"
	return &agent.Outcome{Result: res, SessionID: session}
}

// release puts a claimed task back to open after trouble before its agent
// ran, and returns the trouble.
func (w *worker) release(id string, cause error) error {
	journal.Remove(w.s, id)
	_, err := w.s.Update(id, func(t *task.Task) error {
		if !w.owns(t) {
			return errNotOurs // a human took it back: theirs to decide
		}
		t.Lease = nil
		return t.SetState(task.Open, w.now(), w.opt.Name, "not started: "+cause.Error())
	})
	if err != nil {
		return fmt.Errorf("%s: %w (and releasing it: %v)", id, cause, err)
	}
	return fmt.Errorf("%s: %w", id, cause)
}
