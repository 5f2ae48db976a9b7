package worker

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/agent/sandbox"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

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

// sandboxFor is how the processes of t's runs start: inside bubblewrap
// (a launcher) or plainly (nil), and what its run records: "bwrap", or
// "none" and why. It is the one place that decides.
func (w *worker) sandboxFor(t *task.Task, wt, wtGitDir string, cfg config.AgentConfig) (proc.Launcher, string, error) {
	mode, from := sandboxMode(w.s, t)
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
	p, err := w.sandboxPolicy(t, wt, wtGitDir, cfg)
	if err != nil {
		return nil, "", err
	}
	return sandbox.Bwrap{Path: st.Bwrap, Policy: p}, Sandboxed, nil
}

// SandboxEnv overrides the sandbox mode of the config and the tasks for
// one worker (BH_SANDBOX=off bh worker), as the user's own choice.
const SandboxEnv = "BH_SANDBOX"

// sandboxMode is t's sandbox mode (nil: the config's), and where it was
// set, in words.
func sandboxMode(s *store.Store, t *task.Task) (mode, from string) {
	if m := os.Getenv(SandboxEnv); m != "" {
		return m, SandboxEnv + "=" + m
	}
	mode = s.Config.SandboxMode(t)
	if t != nil && t.Sandbox != "" {
		return mode, "the task's sandbox: " + mode
	}
	return mode, "sandbox: " + mode + " in .bh/config.yaml"
}

// SandboxStatus says whether this worker's runs are sandboxed, and why
// not: bh doctor and the worker's preflight both say it. chosen is a
// sandbox turned off on purpose, which neither warns about.
func SandboxStatus(s *store.Store) (on, chosen bool, why string, err error) {
	mode, from := sandboxMode(s, nil)
	if err := task.CheckSandboxMode(mode); err != nil {
		return false, false, "", fmt.Errorf("%s: %w", SandboxEnv, err)
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

// agentGetenv looks a variable up in the environment the agent gets:
// the worker's own, then the options' (tests give the agent its own HOME).
func (w *worker) agentGetenv() func(string) string {
	return func(name string) string {
		for i := len(w.opt.Env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(w.opt.Env[i], name+"="); ok {
				return v
			}
		}
		return os.Getenv(name)
	}
}

// sandboxPolicy is what the agent of t may see and do. Writable: its worktree
// and the worktree's git dir (the index), the run's outbox (bh mcp records
// questions there), the agent's own state and the config's caches.
// Readable: the system, the toolchains on PATH, the repository's git dir
// and .bh. Hidden: the user's credentials, bh's config and state, the
// runtime dir with its agent sockets, the main tree and the repositories
// beside it, the other tasks' worktrees, and the config's list. Task
// files, the config and all of bh's state stay read-only, so that an
// agent cannot loosen its own sandbox or plant what bh would trust.
func (w *worker) sandboxPolicy(t *task.Task, wt, wtGitDir string, cfg config.AgentConfig) (sandbox.Policy, error) {
	sc := w.s.Config.Sandbox
	getenv := w.agentGetenv()
	home := getenv("HOME")
	root := w.s.Root
	ex := func(ps []string) []string {
		out := make([]string, 0, len(ps))
		for _, p := range ps {
			out = append(out, sandbox.Expand(p, home, root))
		}
		return out
	}
	p := sandbox.Policy{Egress: w.egressFor(cfg), Env: append(slices.Clone(sandbox.DefaultEnv), sc.AllowEnv...), TmpSize: sc.TmpBytes()}
	p.Hidden = append(ex(sandbox.DefaultHidden), sandbox.RuntimeDir(), root)
	p.Hidden = append(p.Hidden, sandbox.Siblings(root)...)
	p.Hidden = append(p.Hidden, WorktreeDir(w.s, w.repo.CommonDir()))
	p.Hidden = append(p.Hidden, ex(sc.Hide)...)

	p.Readable = append([]string{home}, filepath.SplitList(getenv("PATH"))...)
	p.Readable = append(p.Readable, w.repo.CommonDir(), w.s.Dir)
	p.Readable = append(p.Readable, programDirs(cfg, w.mcp())...)
	p.Readable = append(p.Readable, ex(sc.Readable)...)

	// Of bh's own state, the run's outbox alone is writable (outbox.go):
	// not .bh/tmp, .bh/locks, .bh/cache or the run folder, which bh,
	// outside, writes and trusts. bh's config (web.json's token, the
	// registry) and its state dir (other tasks' worktrees and outboxes)
	// are hidden.
	p.Hidden = append(p.Hidden, bhPrivate(getenv, home)...)
	outbox, err := w.makeOutbox(t.ID)
	if err != nil {
		return p, fmt.Errorf("sandbox: %w", err)
	}
	p.Writable = []string{wt, wtGitDir, outbox}
	p.ReadOnly = git.TrustedFiles(wt, wtGitDir) // where bh's git would take its git dir and config from
	if tmp := getenv("TMPDIR"); tmp != "" && filepath.Clean(tmp) != "/tmp" {
		p.Writable = append(p.Writable, tmp) // the agent's temporary files go there
	}
	for _, d := range p.Writable[3:] { // bwrap binds only what exists
		if err := os.MkdirAll(d, 0o755); err != nil {
			return p, fmt.Errorf("sandbox: %w", err)
		}
	}
	state, hide, err := w.agentState(t.ID, cfg) // the run's own (agentstate.go)
	if err != nil {
		return p, fmt.Errorf("sandbox: %w", err)
	}
	p.Writable = append(p.Writable, state...)
	p.Hidden = append(p.Hidden, hide...)
	p.Writable = append(p.Writable, ex(defaultCaches(getenv))...)
	p.Writable = append(p.Writable, ex(sc.Writable)...)
	return p, nil
}

// checkSandbox is the preflight's word on the sandbox: a refusal where
// it is required and cannot run, a warning where runs go unsandboxed.
func (w *worker) checkSandbox() error {
	on, chosen, why, err := SandboxStatus(w.s)
	var se *SandboxError
	switch {
	case errors.As(err, &se):
		return &PreflightError{Err: err, Advice: se.Hint()}
	case err != nil:
		return &PreflightError{Err: err}
	case !on && !chosen:
		w.warnf("agents run unsandboxed: %s", why)
	}
	return nil
}
