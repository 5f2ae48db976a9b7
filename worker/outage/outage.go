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
// (claude, codex or command:<name>), in that agent's own terms: advice's
// words for the outage (any other than these: the agent is missing) and
// the agent's kind ("": claude's, and any agent's the kind has none for).
func Advice(o agent.Outage, agentName string) string {
	kind, name := agentName, ""
	if n, ok := strings.CutPrefix(agentName, "command:"); ok {
		kind, name = "command", n
	}
	words, ok := advice[o]
	if !ok {
		words = advice[agent.OutageMissing]
	}
	say, ok := words[kind]
	if !ok {
		say = words[""]
	}
	return strings.ReplaceAll(say, "{name}", name) + ", then start the worker again"
}

var advice = map[agent.Outage]map[string]string{
	agent.OutageUnreachable: {
		"codex":   "check the network and codex's model_provider base_url",
		"command": "check the network and the service {name} calls",
		"":        "check the network (and ANTHROPIC_BASE_URL, a proxy or a firewall)",
	},
	agent.OutageAuth: {
		"codex":   "check codex's credentials (OPENAI_API_KEY, or codex login)",
		"command": "check the credentials of {name}",
		"":        "check the agent's credentials (ANTHROPIC_API_KEY, or log in with claude)",
	},
	agent.OutageMissing: {
		"codex":   "install codex (npm install -g @openai/codex) or set agent.binary",
		"command": "install {name} or fix agent.command",
		"":        "install the agent (npm install -g @anthropic-ai/claude-code) or set agent.binary",
	},
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
