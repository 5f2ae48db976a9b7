package worker

import (
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task/config"
)

// agentState are the files the agent keeps its sessions and settings in,
// which it must write in the sandbox: Claude Code's ~/.claude and
// ~/.claude.json (or $CLAUDE_CONFIG_DIR), codex's $CODEX_HOME (or
// ~/.codex). They are made if missing: the agent could not make them in
// the read-only home.
func agentState(cfg config.AgentConfig, home string, getenv func(string) string) ([]string, error) {
	var dirs, files []string
	switch cfg.Kind {
	case "", "claude":
		if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
			dirs = append(dirs, d)
		} else {
			dirs, files = append(dirs, filepath.Join(home, ".claude")), append(files, filepath.Join(home, ".claude.json"))
		}
	case "codex":
		d := getenv("CODEX_HOME")
		if d == "" {
			d = filepath.Join(home, ".codex")
		}
		dirs = append(dirs, d)
	}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	for _, f := range files {
		if _, err := os.Stat(f); os.IsNotExist(err) {
			if err := os.WriteFile(f, []byte("{}\n"), 0o600); err != nil {
				return nil, err
			}
		}
	}
	return append(dirs, files...), nil
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

// programDirs are the folders of the programs a run starts by path (the
// agent, bh's MCP server), which must stay readable wherever they are.
func programDirs(cfg config.AgentConfig, mcp *agent.MCPServer) []string {
	var out []string
	for _, p := range append([]string{cfg.Binary}, cfg.Command...) {
		if filepath.IsAbs(p) {
			out = append(out, filepath.Dir(p))
		}
	}
	if mcp != nil && filepath.IsAbs(mcp.Command) {
		out = append(out, filepath.Dir(mcp.Command))
	}
	return out
}
