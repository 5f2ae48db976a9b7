package worker

import (
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task/config"
)

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

// programDirs are the folders of the programs a run starts (the agent,
// bh's MCP server), which must stay readable wherever they are: the
// folder of the path it is started by, the folder of the file that path
// leads to, and for a program npm installed the node_modules folder that
// holds its package and the packages beside it. npm's
// node_modules/.bin/claude is a link to
// ../@anthropic-ai/claude-code/bin/claude.exe, and codex's launcher starts
// a binary from @openai/codex-linux-x64: under a hidden path (a repository
// under /tmp, or beside the user's) neither would start otherwise.
func programDirs(cfg config.AgentConfig, mcp *agent.MCPServer) []string {
	var out []string
	if len(cfg.Command) > 0 {
		out = programDir(lookPath(cfg.Command[0]))
		for _, a := range cfg.Command[1:] {
			out = append(out, programDir(a)...) // a script it runs, by its path
		}
	}
	switch cfg.Kind {
	case "", "claude", "codex":
		out = append(out, programDir(lookPath(firstOf(cfg.Binary, cfg.Kind, "claude")))...)
	}
	if mcp != nil {
		out = append(out, programDir(lookPath(mcp.Command))...)
	}
	return out
}

// programDir are the folders program p needs readable (see programDirs);
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

// lookPath is name's path on PATH, or name itself when it is not found
// there (the agent's own check says so).
func lookPath(name string) string {
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
