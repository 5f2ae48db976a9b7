package cmd

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// bh board at 80x24, as on a small terminal: every hint shows; a question
// far longer than the screen keeps its options in view and scrolls with pgdn; its code keeps
// its tabs as indentation; two keys typed in one burst both move; and the
// question is answered from there.
func TestBoardSmallTerminalInTmux(t *testing.T) {
	findTmux(t)
	root := t.TempDir()
	termEnv(t, root)
	question := "Which database?\n\nfunc pick() {\n\treturn db\n}\n"
	for i := 1; i <= 30; i++ {
		question += fmt.Sprintf("\nq-line %02d of a long question", i)
	}
	asked, _ := json.Marshal(map[string]any{"status": "needs_input", "summary": "drafted",
		"questions": []any{map[string]any{"question": question, "type": "choice",
			"options": []any{map[string]any{"label": "PostgreSQL", "description": "the server"}, map[string]any{"label": "SQLite"}}}}})
	writeE2E(t, root, "agent/ask.plan", "match Pick a database\non first\nprint "+string(asked)+"\n")
	dir := filepath.Join(root, "repo")
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: [fakeagent]\n")
	ask := strings.TrimSpace(bhE2E(t, dir, "add", "Pick a database for the service and its many tests"))
	bhE2E(t, dir, "worker", "--once")
	var ready []string
	for i, title := range []string{"Alpha task", "Beta task", "Gamma task"} {
		ready = append(ready, strings.TrimSpace(bhE2E(t, dir, "add", title, "--priority", fmt.Sprintf("P%d", i+1))))
	}

	term := newTmuxPaneSized(t, dir, "bh board; echo EXITED $?; sleep 30", 80, 24)
	p := term.waitFor("waiting on you (1)")
	if !strings.Contains(p, "› "+ask+" Pick a database…") || !strings.Contains(p, "    return db") {
		t.Errorf("the board at 80x24, with its title cut at a word and its code indented:\n%s", p)
	}
	for _, hint := range []string{"↑/↓ j/k move", "enter answer", "d change", "l run", "s stop", "c continue", "q quit"} {
		if !strings.Contains(p, hint) {
			t.Errorf("the hint %q is cut at 80 columns:\n%s", hint, p)
		}
	}
	term.keys("jj") // in one burst: both count
	term.waitFor("› " + ready[1] + " Beta task")
	term.keys("g")
	term.waitFor("› " + ask)

	term.keys("Enter")
	p = term.waitFor("…more: lines 1–")
	for _, want := range []string{"PostgreSQL", "SQLite", "Other…", "q-line 01"} {
		if !strings.Contains(p, want) {
			t.Errorf("the answer view lacks %q:\n%s", want, p)
		}
	}
	term.keys("PageDown")
	p = term.waitFor("q-line 18") // half a screen down
	if strings.Contains(p, "q-line 01") || !strings.Contains(p, "SQLite") {
		t.Errorf("after pgdn:\n%s", p)
	}
	term.keys("Down", "Enter")
	term.waitFor("Comment for the agent (optional)")
	term.keys("Enter")
	p = term.waitFor("answered " + ask + ": it is open again")
	if !strings.Contains(p, "waiting on you (0)") {
		t.Errorf("after the answer:\n%s", p)
	}
	if got := bhTask(t, dir, ask); got.State != task.Open || strings.Join(got.Questions[0].Answer, ",") != "SQLite" {
		t.Errorf("after the answer: %s, %+v", got.State, got.Questions)
	}
	term.keys("q")
	term.waitFor("EXITED 0")
}
