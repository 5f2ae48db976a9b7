package agent

import (
	"time"

	"github.com/google/uuid"
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

// SessionFile is where codex keeps req's thread (req.SessionID):
// $CODEX_HOME (else $HOME/.codex) /sessions/<y>/<m>/<d>/rollout-<time>-<thread>.jsonl.
// A thread codex no longer has is restored under the date its id (a UUIDv7)
// carries: codex finds a rollout anywhere under sessions/ unless its state
// database remembers the file elsewhere.
func (c *Codex) SessionFile(req Request) string {
	home := lookupEnv(req.Env, "CODEX_HOME")
	if home == "" {
		home = filepath.Join(lookupEnv(req.Env, "HOME"), ".codex")
	}
	sessions := filepath.Join(home, "sessions")
	if found, _ := filepath.Glob(filepath.Join(sessions, "*", "*", "*", "rollout-*-"+req.SessionID+".jsonl")); len(found) > 0 {
		return found[0]
	}
	at := time.Unix(0, 0).UTC()
	if id, err := uuid.Parse(req.SessionID); err == nil && id.Version() == 7 {
		at = time.Unix(id.Time().UnixTime()).UTC()
	}
	return filepath.Join(sessions, at.Format("2006/01/02"), "rollout-"+at.Format("2006-01-02T15-04-05")+"-"+req.SessionID+".jsonl")
}
