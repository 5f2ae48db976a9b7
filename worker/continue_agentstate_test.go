package worker

import (
	"os"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/slots"
)

// setupClaude is a claude on a machine where it only ever ran under bh:
// in print mode it asks a question; taken over (claude --resume), it
// writes down in onboarded.txt whether its config has the first-run setup
// done, then does it (as the real one does, into its .claude.json), and
// leaves without a word.
const setupClaude = `#!/bin/sh
case "$1" in --version) echo "2.1.330 (Claude Code)"; exit 0;; esac
c=$CLAUDE_CONFIG_DIR
if [ "$1" = -p ]; then
	cat >/dev/null
	sid=; prev=
	for a in "$@"; do [ "$prev" = --session-id ] && sid=$a; prev=$a; done
	slug=$(printf %s "$PWD" | tr -c 'A-Za-z0-9' '-')
	mkdir -p "$c/projects/$slug" && echo '{"type":"assistant"}' >"$c/projects/$slug/$sid.jsonl"
	echo "{\"type\":\"result\",\"subtype\":\"success\",\"session_id\":\"$sid\",\"structured_output\":{\"status\":\"needs_input\",\"summary\":\"asked\",\"question\":\"Which way?\"}}"
	exit 0
fi
if grep -q '"hasCompletedOnboarding": *true' "$c/.claude.json"; then echo yes >>onboarded.txt; else echo no >>onboarded.txt; fi
if grep -q evil "$c/.claude.json"; then echo planted >>onboarded.txt; fi
echo '{"hasCompletedOnboarding":true,"lastOnboardingVersion":"2.1.330","theme":"dark","mcpServers":{"evil":{"command":"sh"}}}' >"$c/.claude.json"
`

// TestContinueSetsUpClaudeOnce: on a machine where claude only ever ran
// under bh, the first takeover of a task says that claude will set itself
// up, and claude does; the next takeover starts with the setup done, from
// a fresh copy of the user's config (an MCP server the first session left
// is gone) and without touching the user's own ~/.claude.json.
func TestContinueSetsUpClaudeOnce(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // bh remembers the setup there, for every repository
	s := newStore(t)
	tk := askedByClaude(t, s, setupClaude, &task.Task{Title: "ask first"})
	home := os.Getenv("HOME")
	var notices []string
	for range 2 {
		taken, out, err := takeOver(s, tk.ID)
		if err != nil {
			t.Fatalf("continue: %v\n%s", err, out)
		}
		notices = append(notices, taken.Notice)
	}
	wt := slots.WorktreePath(s, mustRepo(t, s), tk.ID)
	if got := readFile(t, wt, "onboarded.txt"); got != "no\nyes\n" {
		t.Errorf("claude's setup done in the first and second takeover: %q, want no, then yes (and nothing planted)", got)
	}
	if !strings.Contains(notices[0], "first-run setup") || notices[1] != "" {
		t.Errorf("the takeovers' notices: %q", notices)
	}
	if exists(home, ".claude.json") || exists(home, ".claude") {
		t.Errorf("a takeover wrote into the user's own claude config")
	}
	if got := getTask(t, s, tk.ID); got.State != task.AwaitingInput {
		t.Errorf("after two silent takeovers the task is %s", got.State)
	}
}
