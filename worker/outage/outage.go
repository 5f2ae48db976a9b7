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

// Pause is a worker holding new runs back, as .git/bh/runs/pause-<kind>.json
// records it for bh status: after an agent outage (PauseBackoff), or at the
// day's budget (PauseDay). Each kind has its file, so that one's end is
// not taken for the other's.
type Pause struct {
	Until  time.Time `json:"until"`
	Reason string    `json:"reason"`
}

// Pause kinds.
const (
	PauseBackoff = "backoff"
	PauseDay     = "day"
)

func pausePath(s *store.Store, kind string) string {
	return s.Local("runs", "pause-"+kind+".json")
}

// Record records p as s's pause of kind; nil: it is over (kind "": every
// kind is, as bh worker --resume says).
func Record(s *store.Store, kind string, p *Pause) error {
	if p == nil {
		for _, k := range []string{PauseBackoff, PauseDay} {
			if kind == "" || kind == k {
				os.Remove(pausePath(s, k))
			}
		}
		return nil
	}
	b, _ := json.Marshal(p)
	os.MkdirAll(filepath.Dir(pausePath(s, kind)), 0o755)
	return os.WriteFile(pausePath(s, kind), b, 0o644)
}

// PausedNow is the worker's pause of the kinds given (none: any) still in
// force at now, the longest; nil when none is.
func PausedNow(s *store.Store, now time.Time, kinds ...string) *Pause {
	if len(kinds) == 0 {
		kinds = []string{PauseBackoff, PauseDay}
	}
	var found *Pause
	for _, k := range kinds {
		b, err := os.ReadFile(pausePath(s, k))
		var p Pause
		if err == nil && json.Unmarshal(b, &p) == nil && p.Until.After(now) && (found == nil || p.Until.After(found.Until)) {
			found = &p
		}
	}
	return found
}
