package jail

import (
	"cmp"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/sandbox"
	"github.com/bh-tracker/bh/agent/sandbox/egress"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/git"
)

// Policy is what the agent of t may see and do: an allow-list, which
// THREATS.md states and TestSandboxEnumeration holds it to. Readable: the
// System folders, the toolchains on PATH, the agent's program, the
// repository's git dir and .bh, the user's package caches and what
// sandbox.readable names. Writable: its worktree and the worktree's git
// dir (the index), the run's outbox (bh mcp records questions there), the
// agent's own state, the run's own caches and sandbox.writable. The home
// is empty but for those and a .gitconfig bh writes (runhome.go). Hidden
// (empty and read-only, where the git dir or the private /tmp holds them):
// bh's config and state, the main tree, the tasks' worktrees, the agents'
// states and sandbox.hide. Task files, the config and all of bh's state
// stay read-only, so that an agent cannot loosen its own sandbox or plant
// what bh would trust.
func (j *Jail) Policy(t *task.Task, wt, wtGitDir string, cfg config.AgentConfig) (sandbox.Policy, error) {
	sc := j.Store.Config.Sandbox
	getenv := j.Getenv
	home := getenv("HOME")
	ex := func(ps []string) []string {
		out := make([]string, 0, len(ps))
		for _, p := range ps {
			out = append(out, sandbox.Expand(p, home, j.Store.Root))
		}
		return out
	}
	p := sandbox.Policy{Egress: j.egress(cfg), Env: append(slices.Clone(sandbox.DefaultEnv), sc.AllowEnv...), TmpSize: sc.TmpBytes(),
		SetEnv: []string{"TMPDIR=/tmp", "CLAUDE_CODE_TMPDIR=/tmp"}} // temporary files in the run's own /tmp
	p.Hidden = append([]string{home, j.Store.Root, j.Worktrees}, bhPrivate(getenv, home)...)
	p.Limits.Memory, p.Limits.Disk, p.Limits.Processes = sc.Limits()
	p.Limits.Worktree = wt
	p.Hidden = append(p.Hidden, ex(sc.Hide)...)
	p.Readable = append(Toolchains(getenv), j.CommonDir, j.Store.Dir)
	p.Readable = append(p.Readable, ProgramDirs(cfg, j.MCP)...)
	p.Readable = append(p.Readable, UserCaches(getenv)...)
	p.Readable = append(p.Readable, ex(sc.Readable)...)

	// Of bh's own state, the run's outbox alone is writable (outbox.go):
	// not .bh/tmp, .git/bh/locks, .git/bh/cache or the run folder, which bh,
	// outside, writes and trusts.
	outbox, err := j.MakeOutbox(t.ID)
	if err != nil {
		return p, fmt.Errorf("sandbox: %w", err)
	}
	p.Writable = []string{wt, wtGitDir, outbox}
	p.ReadOnly = git.TrustedFiles(wt, wtGitDir) // where bh's git would take its git dir and config from
	state, hide, err := j.agentState(t.ID, cfg) // the run's own (agentstate.go)
	if err != nil {
		return p, fmt.Errorf("sandbox: %w", err)
	}
	p.Writable = append(p.Writable, state...)
	p.Hidden = append(p.Hidden, hide...)
	if err := j.runHome(&p, t.ID, home); err != nil {
		return p, fmt.Errorf("sandbox: %w", err)
	}
	p.Writable = append(p.Writable, ex(sc.Writable)...)
	return p, nil
}

// UserCaches are the user's package caches, readable (never writable) so
// that a run fills its own quickly: Go's build and module caches, npm's,
// pip's and cargo's registry. Those missing are left out by bwrap.
func UserCaches(getenv func(string) string) []string {
	var out []string
	for _, p := range []string{"~/.cache/go-build", "~/.npm", "~/.cache/pip", "~/.cargo/registry", getenv("GOCACHE"),
		userModCache(getenv)} {
		if p = sandbox.Expand(p, getenv("HOME"), "/"); p != "" && p != "/" {
			out = append(out, p)
		}
	}
	return out
}

// userModCache is the user's Go module cache, as go finds it.
func userModCache(getenv func(string) string) string {
	if d := getenv("GOMODCACHE"); d != "" {
		return d
	}
	if gp, _, _ := strings.Cut(getenv("GOPATH"), string(filepath.ListSeparator)); gp != "" {
		return filepath.Join(gp, "pkg", "mod")
	}
	return "~/go/pkg/mod"
}

// Toolchains are the folders on PATH, read-only, and for a folder named
// bin the toolchain that holds it (its parent: ~/go, ~/.pyenv,
// ~/.nvm/versions/node/<v>, /opt/<x>), unless that parent is the home or
// holds more than a toolchain (~/.local; ~/.cargo, whose credentials stay
// out: for ~/.cargo/bin, rustup's toolchains, $RUSTUP_HOME or ~/.rustup).
func Toolchains(getenv func(string) string) []string {
	home := getenv("HOME")
	var out []string
	for _, d := range filepath.SplitList(getenv("PATH")) {
		if !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		out = append(out, d)
		parent := filepath.Dir(d)
		switch {
		case filepath.Base(d) != "bin", parent == home, parent == "/", parent == "/usr", parent == "/usr/local",
			parent == filepath.Join(home, ".local"):
		case parent == filepath.Join(home, ".cargo"):
			out = append(out, cmp.Or(getenv("RUSTUP_HOME"), filepath.Join(home, ".rustup")))
		default:
			out = append(out, parent)
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
			// A script it runs, by its path: the file itself, not its
			// folder, which may be the home or a repository's.
			if filepath.IsAbs(a) {
				out = append(out, a)
				if real, err := filepath.EvalSymlinks(a); err == nil {
					out = append(out, real)
				}
			}
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

// StartAdvice is what to do about an agent of cfg that could not start in
// the sandbox, for why: a local API on a port the sandbox cannot open, or
// (most often) a program the sandbox hides.
func StartAdvice(cfg config.AgentConfig, why string) string {
	if strings.Contains(why, egress.ForwardRefused) {
		return "put the API the agent calls on a port from 1024 up (ANTHROPIC_BASE_URL, OPENAI_BASE_URL), or run agents unsandboxed (BH_SANDBOX=off)"
	}
	return "bh makes the agent's folders readable there (" + strings.Join(ProgramDirs(cfg, nil), ", ") +
		"), the system folders and those on PATH, nothing else of the home; " +
		"list the folder it needs under sandbox.readable in .bh/config.yaml"
}
