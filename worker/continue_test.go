package worker

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

// askingClaude asks a question in print mode; taken over (claude
// --resume <session>), it goes on with what a test appends: $c, $slug,
// $sid and $mode (its --permission-mode) are set.
const askingClaude = `#!/bin/sh
case "$1" in --version) echo "2.1.330 (Claude Code)"; exit 0;; esac
c=$CLAUDE_CONFIG_DIR
sid=; mode=; prev=
for a in "$@"; do
	{ [ "$prev" = --session-id ] || [ "$prev" = --resume ]; } && sid=$a
	[ "$prev" = --permission-mode ] && mode=$a
	prev=$a
done
slug=$(printf %s "$PWD" | tr -c 'A-Za-z0-9' '-')
mkdir -p "$c/projects/$slug"
if [ "$1" = -p ]; then
	cat >/dev/null
	echo '{"type":"assistant"}' >"$c/projects/$slug/$sid.jsonl"
	echo "{\"type\":\"result\",\"subtype\":\"success\",\"session_id\":\"$sid\",\"structured_output\":{\"status\":\"needs_input\",\"summary\":\"asked\",\"question\":\"Which way?\"}}"
	exit 0
fi
`

// sayingClaude is askingClaude whose human says "use tabs" in its session.
const sayingClaude = askingClaude + `echo '{"type":"user","message":{"role":"user","content":"use tabs"}}' >>"$c/projects/$slug/$sid.jsonl"
`

// askedByClaude runs tk (created in s) with a fake claude running script
// until it waits on a question, and sets up the terminal's environment
// for its takeover.
func askedByClaude(t *testing.T, s *store.Store, script string, tk *task.Task) *task.Task {
	t.Helper()
	home := t.TempDir()
	bin := filepath.Join(t.TempDir(), "claude")
	writeFile(t, filepath.Dir(bin), "claude", script)
	os.Chmod(bin, 0o755)
	s.Config.Agent = config.AgentConfig{Kind: "claude", Binary: bin}
	tk, err := s.Create(tk)
	if err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Env: []string{"HOME=" + home, "CLAUDE_CONFIG_DIR="}})
	if got := getTask(t, s, tk.ID); got.State != task.AwaitingInput {
		t.Fatalf("the task is %s: %s", got.State, got.Summary)
	}
	t.Setenv("HOME", home) // the takeover's environment is the terminal's
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	return tk
}

// takeOver is bh continue id by "me", with no keys typed, and what it wrote.
func takeOver(s *store.Store, id string) (*Taken, string, error) {
	var out bytes.Buffer
	taken, err := Continue(context.Background(), s, id, Terminal{In: strings.NewReader(""), Out: &out, Err: &out},
		Options{Name: "continue:me"})
	return taken, out.String(), err
}

// TestContinueAnswersThroughTheDoor: what the human says in a takeover is
// recorded through the one answer door (act.Answer), as bh respond's
// answers are: the task opens again and input.received goes out with
// their words and their name.
func TestContinueAnswersThroughTheDoor(t *testing.T) {
	s := newStore(t)
	h := newHook(t)
	s.Config.Notify = []config.NotifyConfig{h.config()}
	tk := askedByClaude(t, s, sayingClaude, &task.Task{Title: "ask first"})
	taken, out, err := takeOver(s, tk.ID)
	if err != nil || taken == nil || len(taken.Said) != 1 || taken.Said[0] != "use tabs" {
		t.Fatalf("continue: %+v %v\n%s", taken, err, out)
	}
	if got := getTask(t, s, tk.ID); got.State != task.Open {
		t.Fatalf("after the takeover the task is %s", got.State)
	}
	e, ok := h.find(tk.ID, task.EventInputReceived)
	if !ok || e.By != "continue:me" || e.Answer != "use tabs" || e.Question != "Which way?" {
		t.Fatalf("input.received: %+v (found: %v)", e, ok)
	}
}
