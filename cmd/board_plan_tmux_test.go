package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// e on the board opens the plan a planning run waits on in the editor
// (bh respond --edit); saved, the plan is approved as edited, and the
// board says so.
func TestBoardEditsPlanInTmux(t *testing.T) {
	dir := t.TempDir()
	agent := filepath.Join(t.TempDir(), "agent")
	if err := os.WriteFile(agent, []byte(`#!/bin/sh
cat >/dev/null
[ "$BH_PHASE" = plan ] && cat <<'J'
{"status":"completed","summary":"a plan","details":"1. Read.\n2. Add the flag.\n3. Test."}
J
`), 0o755); err != nil {
		t.Fatal(err)
	}
	editor := planEditorFile(t)
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: ["+agent+"]\n")
	id := strings.TrimSpace(bhE2E(t, dir, "add", "Plan the flag", "--plan"))
	bhE2E(t, dir, "worker", "--once")
	if tk := bhTask(t, dir, id); tk.State != task.AwaitingInput {
		t.Fatalf("after planning: %s (%s)", tk.State, tk.Summary)
	}
	term := newTmuxPane(t, dir, "VISUAL= EDITOR="+editor+" NO_COLOR=1 bh board; echo EXITED $?; sleep 30")
	term.waitFor("e edit the plan")
	term.keys("e")
	term.waitFor("approved the plan of " + id)
	q := bhTask(t, dir, id).Questions[0]
	if len(q.Answer) != 1 || q.Answer[0] != "yes" || !strings.Contains(q.Comment, "2. Add the flag, named --shout (edited).") {
		t.Errorf("the plan's answer: %+v", q)
	}
	term.keys("q")
	term.waitFor("EXITED 0")
}
