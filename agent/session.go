package agent

import (
	"os"
	"path/filepath"
	"strings"
)

// SessionFile is where Claude Code keeps the transcript of req's session:
// $CLAUDE_CONFIG_DIR (else $HOME/.claude) /projects/<the working directory
// with every character but letters and digits turned into '-'>/<session>.jsonl.
// req.Env wins over the inherited environment, as it does for the run.
func (c *Claude) SessionFile(req Request) string {
	config := lookupEnv(req.Env, "CLAUDE_CONFIG_DIR")
	if config == "" {
		config = filepath.Join(lookupEnv(req.Env, "HOME"), ".claude")
	}
	return filepath.Join(config, "projects", projectSlug(req.Dir), req.SessionID+".jsonl")
}

func projectSlug(dir string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, dir)
}

// lookupEnv reads key from env ("KEY=value", the last one wins), else from
// the process's environment.
func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return os.Getenv(key)
}
