package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// Terminal is the human's terminal, handed to the agent for a takeover.
type Terminal struct {
	In       io.Reader
	Out, Err io.Writer
}

// continuable are the states whose agent session a human may take over.
var continuable = []task.State{task.AwaitingInput, task.Blocked, task.Failed}

// Continuable refuses a task whose state has no session to take over.
func Continuable(t *task.Task) error {
	if !slices.Contains(continuable, t.State) {
		return fmt.Errorf("%s is %s: only a waiting, blocked or failed task can be continued", t.ID, t.State)
	}
	return nil
}

// Continue hands a waiting, blocked or failed task's agent session to the
// human (bh continue): claude --resume <session> (codex resume <thread>) in the task's worktree,
// attached to the terminal. When the human leaves it, the task goes back
// to open and the worker resumes the same session for its result.
func Continue(ctx context.Context, s *task.Store, id string, term Terminal, opt Options) error {
	w, err := newWorker(s, opt)
	if err != nil {
		return err
	}
	t, err := s.Get(id)
	if err != nil {
		return err
	}
	if err := Continuable(t); err != nil {
		return err
	}
	if t.SessionID == "" || !sessionRan(t) {
		return fmt.Errorf("%s has no agent session to continue", id)
	}
	// The agent that ran the session takes it over: claude --resume, or
	// codex resume for a codex thread.
	cfg := s.Config.Agent.For(t)
	kind, resumeArgs := "claude", []string{"--resume", t.SessionID}
	if t.Agent == "codex" {
		kind, resumeArgs = "codex", []string{"resume", t.SessionID}
	}
	binary := kind
	if firstOf(cfg.Kind, "claude") == kind {
		binary = firstOf(cfg.Binary, binary)
	}
	if _, err := agent.Check(ctx, binary); err != nil {
		return err
	}
	path := WorktreePath(s, w.repo, id)
	wt, err := w.takeoverWorktree(t, path)
	if err != nil {
		return err
	}
	req := agent.Request{Dir: filepath.Join(wt, cfg.Dir), SessionID: t.SessionID,
		Env: []string{"BH_TASK_ID=" + id, "BH_WORKTREE=" + wt}}
	switch t.Agent { // sessions that live in files bh can check and put back
	case "claude":
		w.runner = agent.NewClaude(agent.ClaudeConfig{Binary: binary})
	case "codex":
		w.runner = agent.NewCodex(agent.CodexConfig{Binary: binary})
	}
	if !restoreSession(s, w.runner, id, req) {
		return fmt.Errorf("%s: the agent's session %s cannot be found or restored", id, t.SessionID)
	}
	cmd := exec.CommandContext(ctx, binary, resumeArgs...)
	cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr = req.Dir, term.In, term.Out, term.Err
	cmd.Env = append(os.Environ(), req.Env...)
	runErr := cmd.Run()
	w.keepSession(&run{t: t, session: t.SessionID, runner: w.runner}, req)
	var ee *exec.ExitError
	if runErr != nil && !errors.As(runErr, &ee) {
		return fmt.Errorf("continue %s: %w", id, runErr)
	}
	_, err = s.Update(id, func(t *task.Task) error {
		at := w.now()
		expireAll(t, at, "human", "taken over in the agent's session")
		return t.SetState(task.Open, at, "human", "continued by hand in session "+t.SessionID+
			"; the worker resumes it for its result")
	})
	return err
}

// takeoverWorktree is the task's worktree, recreated from its parked work
// when it is gone.
func (w *worker) takeoverWorktree(t *task.Task, path string) (string, error) {
	head, err := w.repo.Head()
	if err != nil {
		return "", err
	}
	wt, _, _, err := w.ensureWorktree(t.ID, path, head)
	if err != nil {
		return "", err
	}
	return wt.Path, nil
}
