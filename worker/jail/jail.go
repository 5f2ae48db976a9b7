// Package jail confines the agent runs of one worker: the bubblewrap
// policy built from the config, the network's way out through bh's proxy,
// each task's own agent state and outbox, and the files bh writes where an
// agent could have planted a link.
package jail

import (
	"fmt"
	"os"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/agent/sandbox"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

// Jail is what the runs of one worker, in one repository, are confined by.
type Jail struct {
	Store     *store.Store
	CommonDir string           // the repository's git common dir
	Worktrees string           // the folder of the tasks' worktrees, hidden from each run
	Env       []string         // the options' environment, over the worker's own
	MCP       *agent.MCPServer // bh's MCP server for agents; nil for none
	// OwnState is a runner the caller gave, which keeps its own agent
	// state: bh neither makes nor closes it.
	OwnState bool
	Identity func() (name, email string) // the user's git identity, for the sandbox's .gitconfig
	Warnf    func(format string, args ...any)
}

// Sandboxed is what a sandboxed run records as its sandbox.
const Sandboxed = "bwrap"

// SandboxError is a run the config or the task requires to be sandboxed
// where bubblewrap cannot run.
type SandboxError struct{ Why string }

func (e *SandboxError) Error() string { return "sandbox: required, but " + e.Why }

// Hint tells the user what to do.
func (e *SandboxError) Hint() string {
	return "install bubblewrap (apt install bubblewrap), or set sandbox: auto in .bh/config.yaml"
}

// Launcher is how the processes of t's runs start: inside bubblewrap
// (a launcher) or plainly (nil), and what its run records: "bwrap", or
// "none" and why. It is the one place that decides.
func (j *Jail) Launcher(t *task.Task, wt, wtGitDir string, cfg config.AgentConfig) (proc.Launcher, string, error) {
	mode, from := Mode(j.Store.Config, t)
	if mode == task.SandboxOff {
		return nil, "none (" + from + ")", nil
	}
	st := sandbox.Detect()
	if st.Bwrap == "" {
		if mode == task.SandboxRequired {
			return nil, "", &SandboxError{Why: st.Why}
		}
		return nil, "none (" + st.Why + ")", nil
	}
	p, err := j.Policy(t, wt, wtGitDir, cfg)
	if err != nil {
		return nil, "", err
	}
	return sandbox.Bwrap{Path: st.Bwrap, Policy: p}, Sandboxed, nil
}

// Env overrides the sandbox mode of the config and the tasks for
// one worker (BH_SANDBOX=off bh worker), as the user's own choice.
const Env = "BH_SANDBOX"

// Mode is t's sandbox mode (nil: the config's), and where it was set,
// in words.
func Mode(c config.Config, t *task.Task) (mode, from string) {
	if m := os.Getenv(Env); m != "" {
		return m, Env + "=" + m
	}
	mode = c.SandboxMode(t)
	if t != nil && t.Sandbox != "" {
		return mode, "the task's sandbox: " + mode
	}
	return mode, "sandbox: " + mode + " in .bh/config.yaml"
}

// Status says whether a worker's runs under c are sandboxed, and why
// not: bh doctor and the worker's preflight both say it. chosen is a
// sandbox turned off on purpose, which neither warns about.
func Status(c config.Config) (on, chosen bool, why string, err error) {
	mode, from := Mode(c, nil)
	if err := task.CheckSandboxMode(mode); err != nil {
		return false, false, "", fmt.Errorf("%s: %w", Env, err)
	}
	if mode == task.SandboxOff {
		return false, true, from, nil
	}
	st := sandbox.Detect()
	switch {
	case st.Bwrap != "":
		return true, false, "agents run in bubblewrap (" + st.Bwrap + ")", nil
	case mode == task.SandboxRequired:
		return false, false, st.Why, &SandboxError{Why: st.Why}
	}
	return false, false, st.Why, nil
}

// MCPCommand is how the agent starts bh's MCP server: this program (or
// $BH_EXECUTABLE, for a bh that runs wrapped) with "mcp".
func MCPCommand() *agent.MCPServer {
	self := os.Getenv("BH_EXECUTABLE")
	if self == "" {
		var err error
		if self, err = os.Executable(); err != nil {
			return nil
		}
	}
	return &agent.MCPServer{Command: self, Args: []string{"mcp"}}
}

// Getenv looks a variable up in the environment the agent gets: the
// worker's own, then the options' (tests give the agent its own HOME).
func (j *Jail) Getenv(name string) string { return agent.LookupEnv(j.Env, name) }

// Planning is launch for a planning run's agent (plan: true): its worktree
// wt and git dir bound read-only, so that an agent ignoring its phase
// cannot write them. Unsandboxed (nil), bh's check after the run alone
// refuses a run that wrote. worktree.setup and the checks keep launch.
func Planning(launch proc.Launcher, wt, wtGitDir string) proc.Launcher {
	b, ok := launch.(sandbox.Bwrap)
	if !ok {
		return launch
	}
	b.Policy = b.Policy.Reading(wt, wtGitDir)
	return b
}
