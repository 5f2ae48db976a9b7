package jail

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/sandbox"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/git"
)

// Policy is what the agent of t may see and do. Writable: its worktree
// and the worktree's git dir (the index), the run's outbox (bh mcp records
// questions there), the agent's own state and the config's caches.
// Readable: the system, the toolchains on PATH, the repository's git dir
// and .bh. Hidden: the user's credentials, bh's config and state, the
// runtime dir with its agent sockets, the main tree and the repositories
// beside it, the other tasks' worktrees, and the config's list. Task
// files, the config and all of bh's state stay read-only, so that an
// agent cannot loosen its own sandbox or plant what bh would trust.
func (j *Jail) Policy(t *task.Task, wt, wtGitDir string, cfg config.AgentConfig) (sandbox.Policy, error) {
	sc := j.Store.Config.Sandbox
	getenv := j.Getenv
	home := getenv("HOME")
	root := j.Store.Root
	ex := func(ps []string) []string {
		out := make([]string, 0, len(ps))
		for _, p := range ps {
			out = append(out, sandbox.Expand(p, home, root))
		}
		return out
	}
	p := sandbox.Policy{Egress: j.egress(cfg), Env: append(slices.Clone(sandbox.DefaultEnv), sc.AllowEnv...), TmpSize: sc.TmpBytes()}
	p.Limits.Memory, p.Limits.Disk, p.Limits.Processes = sc.Limits()
	p.Limits.Worktree = wt
	p.Hidden = append(ex(sandbox.DefaultHidden), sandbox.RuntimeDir(), root)
	p.Hidden = append(p.Hidden, sandbox.Siblings(root)...)
	p.Hidden = append(p.Hidden, j.Worktrees)
	p.Hidden = append(p.Hidden, ex(sc.Hide)...)

	p.Readable = append([]string{home}, filepath.SplitList(getenv("PATH"))...)
	p.Readable = append(p.Readable, j.CommonDir, j.Store.Dir)
	p.Readable = append(p.Readable, ProgramDirs(cfg, j.MCP)...)
	p.Readable = append(p.Readable, ex(sc.Readable)...)

	// Of bh's own state, the run's outbox alone is writable (outbox.go):
	// not .bh/tmp, .bh/locks, .bh/cache or the run folder, which bh,
	// outside, writes and trusts. bh's config (web.json's token, the
	// registry) and its state dir (other tasks' worktrees and outboxes)
	// are hidden.
	p.Hidden = append(p.Hidden, bhPrivate(getenv, home)...)
	outbox, err := j.MakeOutbox(t.ID)
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
	state, hide, err := j.agentState(t.ID, cfg) // the run's own (agentstate.go)
	if err != nil {
		return p, fmt.Errorf("sandbox: %w", err)
	}
	p.Writable = append(p.Writable, state...)
	p.Hidden = append(p.Hidden, hide...)
	p.Writable = append(p.Writable, ex(defaultCaches(getenv))...)
	p.Writable = append(p.Writable, ex(sc.Writable)...)
	return p, nil
}

// defaultCaches are the package caches agents may write, so that builds
// and tests run in the sandbox: Go's build and module caches, npm's,
// pip's and cargo's registry. Those missing are left out.
func defaultCaches(getenv func(string) string) []string {
	out := []string{"~/.cache/go-build", "~/go/pkg/mod", "~/.npm", "~/.cache/pip", "~/.cargo/registry"}
	for _, v := range []string{"GOCACHE", "GOMODCACHE"} {
		if d := getenv(v); d != "" {
			out = append(out, d)
		}
	}
	return out
}

// ProgramDirs are the folders of the programs a run starts (the agent,
// bh's MCP server), which must stay readable wherever they are: the
// folder of the path it is started by, the folder of the file that path
// leads to, and for a program npm installed the node_modules folder that
// holds its package and the packages beside it. npm's
// node_modules/.bin/claude is a link to
// ../@anthropic-ai/claude-code/bin/claude.exe, and codex's launcher starts
// a binary from @openai/codex-linux-x64: under a hidden path (a repository
// under /tmp, or beside the user's) neither would start otherwise.
func ProgramDirs(cfg config.AgentConfig, mcp *agent.MCPServer) []string {
	var out []string
	if len(cfg.Command) > 0 {
		out = programDir(LookPath(cfg.Command[0]))
		for _, a := range cfg.Command[1:] {
			out = append(out, programDir(a)...) // a script it runs, by its path
		}
	}
	switch cfg.Kind {
	case "", "claude", "codex":
		out = append(out, programDir(LookPath(cmp.Or(cfg.Binary, cfg.Kind, "claude")))...)
	}
	if mcp != nil {
		out = append(out, programDir(LookPath(mcp.Command))...)
	}
	return out
}

// programDir are the folders program p needs readable (see ProgramDirs);
// none for a relative path, which would be found in the worktree.
func programDir(p string) []string {
	if !filepath.IsAbs(p) {
		return nil
	}
	out := []string{filepath.Dir(p)}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return out
	}
	out = append(out, filepath.Dir(real))
	if i := strings.LastIndex(real, sep+"node_modules"+sep); i >= 0 {
		out = append(out, real[:i+len(sep+"node_modules")])
	}
	return out
}

const sep = string(filepath.Separator)

// LookPath is name's path on PATH, or name itself when it is not found
// there (the agent's own check says so).
func LookPath(name string) string {
	if strings.ContainsRune(name, filepath.Separator) {
		return name
	}
	if p, err := exec.LookPath(name); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	return name
}
