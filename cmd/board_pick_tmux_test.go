package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// The pick of a task tried side by side, answered on the board: its
// attempts in the question's context, attempt 2 picked in the picker as
// any choice is, and the next worker round lands exactly its file.
func TestBoardPicksAnAttemptInTmux(t *testing.T) {
	dir := t.TempDir()
	agent := filepath.Join(t.TempDir(), "agent")
	if err := os.WriteFile(agent, []byte(`#!/bin/sh
cat >/dev/null
echo "attempt $BH_ATTEMPT" > attempt$BH_ATTEMPT.txt
printf '{"status":"completed","summary":"attempt %s did it"}\n' "$BH_ATTEMPT"
`), 0o755); err != nil {
		t.Fatal(err)
	}
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: ["+agent+"]\n")
	id := strings.TrimSpace(bhE2E(t, dir, "add", "Write a file", "--attempts", "2"))
	for i := 0; i < 3 && bhTask(t, dir, id).State != task.AwaitingInput; i++ {
		bhE2E(t, dir, "worker", "--once", "-j", "2")
	}
	if tk := bhTask(t, dir, id); tk.State != task.AwaitingInput {
		t.Fatalf("after its attempts: %s (%s)", tk.State, tk.Summary)
	}
	term := newTmuxPane(t, dir, "NO_COLOR=1 bh board; echo EXITED $?; sleep 30")
	p := term.waitFor("2 attempts finished: which one lands?")
	for _, want := range []string{"attempt 1 did it", "attempt 2 did it", "attempt2.txt | +1 -0"} {
		if !strings.Contains(p, want) {
			t.Errorf("the board lacks %q:\n%s", want, p)
		}
	}
	term.keys("Enter")
	term.waitFor("none of these")
	term.keys("Down", "Enter")
	term.waitFor("Comment for the agent (optional)")
	term.keys("Enter")
	term.waitFor("answered " + id + ": it is open again")
	term.keys("q")
	term.waitFor("EXITED 0")
	if q := bhTask(t, dir, id).Questions[0]; len(q.Answer) != 1 || q.Answer[0] != "2" {
		t.Fatalf("the pick's answer: %+v", q)
	}
	bhE2E(t, dir, "worker", "--once")
	if tk := bhTask(t, dir, id); tk.State != task.Closed {
		t.Fatalf("after the pick: %s (%s)", tk.State, tk.Summary)
	}
	if _, err := os.Stat(filepath.Join(dir, "attempt2.txt")); err != nil {
		t.Errorf("attempt 2's file did not land: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "attempt1.txt")); err == nil {
		t.Errorf("attempt 1's file landed too")
	}
}
