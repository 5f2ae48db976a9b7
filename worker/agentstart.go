package worker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/bh-tracker/bh/worker/jail"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/agent/sandbox"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// agentProgram is the kind and program of a runner bh starts by path or
// name (claude, codex), for startsInSandbox; ok is false for others.
func agentProgram(r agent.Runner) (cfg config.AgentConfig, ok bool) {
	switch a := r.(type) {
	case *agent.Claude:
		return config.AgentConfig{Kind: "claude", Binary: a.Program()}, true
	case *agent.Codex:
		return config.AgentConfig{Kind: "codex", Binary: a.Program()}, true
	}
	return cfg, false
}

// startsInSandbox starts the agent of cfg once the way a run would (its
// --version, in the sandbox of a run), so that an agent the sandbox
// cannot start (installed under a hidden folder, a link into one, an
// interpreter out of reach) is found before any task is claimed, rather
// than by every task failing in a tenth of a second. Where runs are not
// sandboxed there is nothing to check.
func (w *worker) startsInSandbox(ctx context.Context, cfg config.AgentConfig) error {
	if on, _, _, err := jail.Status(w.s.Config); err != nil || !on {
		return nil // checkSandbox says why
	}
	// A run's own policy, for a scratch worktree and no task: the check
	// sees what a run would, whatever the policy hides next.
	scratch, err := os.MkdirTemp("", "bh-start-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	p, err := w.jail().Policy(&task.Task{}, scratch, scratch, cfg)
	if err != nil {
		return err
	}
	out := proc.NewCapWriter(4096, 1024)
	argv := []string{cfg.Binary, "--version"}
	res, err := proc.Run(ctx, proc.Cmd{Argv: argv, Dir: scratch, Env: w.opt.Env, Stdout: out, Stderr: out,
		Timeout: agent.VersionTimeout, Grace: time.Second, Launcher: sandbox.Bwrap{Path: sandbox.Detect().Bwrap, Policy: p}})
	why := ""
	switch {
	case err != nil && ctx.Err() != nil:
		return err
	case errors.Is(err, context.DeadlineExceeded):
		why = fmt.Sprintf("--version did not answer within %s", agent.VersionTimeout)
	case err != nil:
		why = err.Error()
	case res.ExitCode != 0:
		why = fmt.Sprintf("--version exited with status %d", res.ExitCode)
		if said := lastLine(string(out.Bytes())); said != "" {
			why += ": " + said
		}
	default:
		return nil
	}
	return &PreflightError{Err: fmt.Errorf("%s cannot start in the sandbox: %s", cfg.Binary, why), Advice: jail.StartAdvice(cfg, why)}
}

func lastLine(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(l[len(l)-1])
}
