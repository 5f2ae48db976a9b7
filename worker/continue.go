package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/worker/act"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/agent/untrusted"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/plan"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/jail"
	"github.com/bh-tracker/bh/worker/slots"
)

// Terminal is the human's terminal, for a takeover.
type Terminal struct {
	In       io.Reader
	Out, Err io.Writer   // Err: bh's own words before and after the session
	Attach   proc.Attach // a terminal of bh's own for the session, never the human's; nil: none
}

// Taken is how a takeover ended.
type Taken struct {
	// Said is what the human typed in the session, one entry a turn; none
	// means the task was left as it was, its questions pending.
	Said []string
	// Notice is something the human should know before the session,
	// such as claude's first-run setup.
	Notice string
}

// ErrNotStarted is a takeover whose agent exited with an error before the
// human said anything: nothing was changed.
var ErrNotStarted = errors.New("the agent's session ended before you said anything")

// Continue hands a waiting, blocked or failed task's agent session to the
// human (bh continue): claude --resume <session> (codex resume <thread>)
// in the task's worktree, with the worker's own permissions and MCP server,
// attached to the terminal. Only if the human said something in it (new
// turns in the session's transcript) are its questions answered by their
// words and the task opened again, for the worker to resume the same
// session; otherwise the task is left as it was, and an agent that exited
// with an error is ErrNotStarted.
func Continue(ctx context.Context, s *store.Store, id string, term Terminal, opt Options) (*Taken, error) {
	w, err := newWorker(s, opt)
	if err != nil {
		return nil, err
	}
	t, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	if err := t.Continuable(); err != nil {
		return nil, err
	}
	if t.SessionID == "" || !t.SessionRan() {
		return nil, fmt.Errorf("%s has no agent session to continue", id)
	}
	tk, err := w.takeoverAgent(t)
	if err != nil {
		return nil, err
	}
	tv, err := w.takeover(t, tk)
	if err != nil {
		return nil, err
	}
	defer w.jail().CloseState(id, tk.cfg, true)
	if !restoreSession(s, tk.runner, id, tv.req) {
		return nil, fmt.Errorf("%s: the agent's session %s cannot be found or restored", id, t.SessionID)
	}
	taken, err := w.talk(ctx, t, tk, tv, term)
	if err != nil || len(taken.Said) == 0 {
		return taken, err
	}
	// Through the one answer door, with its notification; a task answered
	// or moved on meanwhile refuses it: theirs stands.
	_, err = act.Answer(s, id, []task.Answer{{Comment: strings.Join(taken.Said, "\n"), Session: t.SessionID}},
		w.opt.Name, func(format string, args ...any) { fmt.Fprintf(term.Err, "bh: "+format+"\n", args...) })
	return taken, err
}

// takeoverRun is where and how the human's session runs.
type takeoverRun struct {
	req    agent.Request
	wt     string        // the task's worktree
	launch proc.Launcher // the same sandbox as the worker's runs
}

// takeover readies the human's session of t: its worktree (recreated if
// gone), its sandbox, and a fresh copy of the human's own agent config
// beside the session's transcript alone, so that nothing the task's runs
// planted in its state reaches it (jail/agentstate.go).
func (w *worker) takeover(t *task.Task, tk *takeoverAgent) (*takeoverRun, error) {
	id := t.ID
	tree, err := w.takeoverWorktree(t, slots.WorktreePath(w.s, w.repo, id))
	if err != nil {
		return nil, err
	}
	wt := tree.Path
	launch, _, err := w.jail().Launcher(t, wt, tree.GitDir(), tk.cfg)
	if err != nil {
		return nil, err
	}
	req := agent.Request{Dir: filepath.Join(wt, w.s.Config.Agent.For(t).Dir), SessionID: t.SessionID, TaskID: id,
		Outbox: w.jail().Outbox(id), Env: append([]string{"BH_TASK_ID=" + id, "BH_WORKTREE=" + wt}, w.jail().StateEnv(id, tk.cfg)...),
		ReadOnly: plan.Planning(t, w.s.Config.Plan)}
	if req.ReadOnly { // a session still planning is taken over as it ran: plan mode, its worktree read-only
		launch = jail.Planning(launch, wt, tree.GitDir())
	}
	if err := w.jail().FreshState(id, tk.cfg, tk.runner.SessionFile(req)); err != nil {
		return nil, err
	}
	return &takeoverRun{req: req, wt: wt, launch: launch}, nil
}

// talk runs the human's session attached to the terminal and returns what
// they said in it; an agent that exited with an error before they said
// anything is ErrNotStarted.
func (w *worker) talk(ctx context.Context, t *task.Task, tk *takeoverAgent, tv *takeoverRun, term Terminal) (*Taken, error) {
	id, req := t.ID, tv.req
	taken := &Taken{}
	if p, ok := tk.runner.(interface {
		PrepareTakeover(agent.Request, string) (string, error)
	}); ok {
		var err error
		if taken.Notice, err = p.PrepareTakeover(req, tv.wt); err != nil {
			return nil, fmt.Errorf("continue %s: %w", id, err)
		}
		if taken.Notice != "" {
			fmt.Fprintln(term.Err, "bh: "+taken.Notice)
		}
	}
	file := tk.runner.SessionFile(req)
	before, _ := untrusted.ReadFile(file, jail.MaxSession) // the agent's file: no link followed
	res, runErr := proc.Run(ctx, proc.Cmd{Argv: append([]string{tk.binary}, tk.runner.TakeoverArgs(req)...),
		Dir: req.Dir, Env: req.Env, Stdin: term.In, Stdout: term.Out, Stderr: term.Err, Attach: term.Attach,
		Launcher: tv.launch})
	after, _ := untrusted.ReadFile(file, jail.MaxSession)
	w.keepSession(&run{t: t, session: t.SessionID, runner: tk.runner}, req)
	if runErr != nil && res.PID == 0 {
		return nil, fmt.Errorf("continue %s: %w", id, runErr)
	}
	if runErr == nil && res.ExitCode != 0 {
		runErr = fmt.Errorf("exit status %d", res.ExitCode)
	}
	if taken.Said = agent.Said(tk.runner, before, after); len(taken.Said) == 0 && runErr != nil {
		return taken, fmt.Errorf("%s: %w (%s: %v)", id, ErrNotStarted, filepath.Base(tk.binary), runErr)
	}
	return taken, nil
}

// takeoverAgent is the agent that ran t's session, built as the worker
// builds it for a run (the same permissions, git rules and MCP server):
// claude, or codex for a codex thread. A command agent keeps no session a
// human could talk to.
type takeoverAgent struct {
	runner interface {
		agent.Runner
		agent.Takeover
	}
	binary string
	cfg    config.AgentConfig // the config's agent as t ran it
}

func (w *worker) takeoverAgent(t *task.Task) (*takeoverAgent, error) {
	cfg := w.s.Config.Agent.For(t)
	kind := "claude"
	switch {
	case t.Agent == "codex":
		kind = "codex"
	case t.Agent != "" && t.Agent != "claude":
		return nil, fmt.Errorf("%s ran with %s, whose session cannot be taken over: only claude's and codex's can", t.ID, t.Agent)
	}
	if cmp.Or(cfg.Kind, "claude") != kind {
		cfg.Binary = cfg.Binaries[kind] // the config changed agent since: t's own is the one to resume
	}
	cfg.Kind = kind
	cfg.Binary = cmp.Or(cfg.Binary, kind)
	if _, err := agent.Check(context.Background(), cfg.Binary); err != nil {
		return nil, err
	}
	r, err := NewRunner(cfg, w.mcp())
	if err != nil {
		return nil, err
	}
	tk, ok := r.(interface {
		agent.Runner
		agent.Takeover
	})
	if !ok {
		return nil, fmt.Errorf("%s: %s cannot be taken over", t.ID, kind)
	}
	return &takeoverAgent{runner: tk, binary: cfg.Binary, cfg: cfg}, nil
}

// takeoverWorktree is the task's worktree, recreated from its parked work
// when it is gone.
func (w *worker) takeoverWorktree(t *task.Task, path string) (*git.Worktree, error) {
	head, err := w.repo.Head()
	if err != nil {
		return nil, err
	}
	snap, start, err := w.parkedStart(t.ID, head)
	if err != nil {
		return nil, err
	}
	// A slot is taken only by the worker (which alone knows which are
	// free); without one the task gets a worktree of its own.
	wt, _, _, err := w.ensureWorktree(t.ID, path, slots.In(w.s, w.repo, path), snap, start)
	return wt, err
}
