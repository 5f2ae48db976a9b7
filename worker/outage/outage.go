// Package outage is what bh keeps and says of an agent outage: the
// worker's pause (a backoff, or the account's usage limit held to its
// reset and shared with every machine as a ref), recorded for bh status,
// and what to do about a lasting one.
package outage

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task/store"
)

// Advice says what to do about a lasting outage of the agent that ran
// (claude, codex or command:<name>), in that agent's own terms.
func Advice(o agent.Outage, agentName string) string {
	switch {
	case o == agent.OutageUnreachable && agentName == "codex":
		return "check the network and codex's model_provider base_url, then start the worker again"
	case o == agent.OutageUnreachable:
		return "check the network (and ANTHROPIC_BASE_URL, a proxy or a firewall), then start the worker again"
	case o == agent.OutageAuth && agentName == "codex":
		return "check codex's credentials (OPENAI_API_KEY, or codex login), then start the worker again"
	case o == agent.OutageAuth && strings.HasPrefix(agentName, "command:"):
		return "check the credentials of " + strings.TrimPrefix(agentName, "command:") + ", then start the worker again"
	case o == agent.OutageAuth:
		return "check the agent's credentials (ANTHROPIC_API_KEY, or log in with claude), then start the worker again"
	case agentName == "codex":
		return "install codex (npm install -g @openai/codex) or set agent.binary, then start the worker again"
	case strings.HasPrefix(agentName, "command:"):
		return "install " + strings.TrimPrefix(agentName, "command:") + " or fix agent.command, then start the worker again"
	}
	return "install the agent (npm install -g @anthropic-ai/claude-code) or set agent.binary, then start the worker again"
}

// Pause is a worker holding new runs back after an agent outage, as
// .bh/runs/pause.json records it for bh status.
type Pause struct {
	Until  time.Time `json:"until"`
	Reason string    `json:"reason"`
}

func pausePath(s *store.Store) string { return filepath.Join(s.Dir, "runs", "pause.json") }

// Record records p as s's pause; nil: the pause is over.
func Record(s *store.Store, p *Pause) error {
	if p == nil {
		os.Remove(pausePath(s))
		return nil
	}
	b, _ := json.Marshal(p)
	os.MkdirAll(filepath.Dir(pausePath(s)), 0o755)
	return os.WriteFile(pausePath(s), b, 0o644)
}

// PausedNow is the worker's pause still in force at now, or nil.
func PausedNow(s *store.Store, now time.Time) *Pause {
	b, err := os.ReadFile(pausePath(s))
	var p Pause
	if err != nil || json.Unmarshal(b, &p) != nil || !p.Until.After(now) {
		return nil
	}
	return &p
}
