package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"

	"github.com/bh-tracker/bh/task"
)

// A gate reviewed on bh board, as on the web: approving it unopened asks
// once; d opens its change, where c comments on a line; the approval,
// given there, is held with a countdown, the cursor and the pane go on to
// the next task waiting, and u undoes it, in the change's view too,
// nothing recorded or landed; a no carries the
// comment to the resumed agent with its file and line (and the history
// keeps it); the next round's approval, asked about again since its change
// is another, is recorded once its window ends and lands.
func TestBoardReviewsAGateInTmux(t *testing.T) {
	findTmux(t)
	root := t.TempDir()
	termEnv(t, root)
	writeE2E(t, root, "agent/report.plan", `match Write the report
on first
write report.txt first draft
print {"status":"completed","summary":"wrote report.txt"}
on resume
expect report.txt, line 1: say final
write final.txt first draft
rm report.txt
print {"status":"completed","summary":"renamed it to final.txt"}
`)
	writeE2E(t, root, "agent/ask.plan", `match Pick a database
print {"status":"needs_input","summary":"drafted","questions":[{"question":"Which database?","type":"choice","options":[{"label":"PostgreSQL"},{"label":"SQLite"}]}]}
`)
	dir := filepath.Join(root, "repo")
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: [fakeagent]\n")
	gate := strings.TrimSpace(bhE2E(t, dir, "add", "Write the report", "--gate", "approval", "--priority", "P1"))
	ask := strings.TrimSpace(bhE2E(t, dir, "add", "Pick a database", "--priority", "P2"))
	bhE2E(t, dir, "worker", "--once")
	bhE2E(t, dir, "worker", "--once")
	waiting := func(when string) {
		t.Helper()
		if tk := bhTask(t, dir, gate); tk.State != task.AwaitingInput || len(tk.OpenQuestions()) != 1 {
			t.Fatalf("%s: %s, waiting on %+v", when, tk.State, tk.OpenQuestions())
		}
		if _, err := os.Stat(filepath.Join(dir, "report.txt")); err == nil {
			t.Fatalf("%s: the work landed", when)
		}
	}

	term := newTmuxPane(t, dir, "bh board; echo EXITED $?; sleep 30")
	term.waitFor("waiting on you (2)")
	term.waitFor("› " + gate)
	approve := func() {
		t.Helper()
		term.keys("Enter")
		term.waitFor("y Yes • n No")
		term.keys("y")
		term.waitFor("Comment for the agent (optional)")
		term.keys("Enter")
	}
	approve()
	term.waitFor("You have not opened the change. Approve anyway?")
	term.waitFor("y Yes • n No")
	term.keys("n")
	term.waitFor("not approved: d shows the change")
	waiting("asked first, then no")

	// The change, a comment on its line, then the approval: held, not asked.
	term.keys("d")
	term.waitFor("+first draft")
	term.keys("G", "c")
	term.waitFor("Comment on report.txt:1")
	term.keys("say final", "Enter")
	term.waitFor("✎ say final")
	approve() // from the diff view, where the reviewer is
	p := term.waitFor("your approval lands in")
	term.keys("k", "d") // back to the gate's change, within the window: the checks of the held state come after
	if !strings.Contains(p, "u undo") || !strings.Contains(p, "› "+ask) || strings.Contains(p, "Approve anyway") ||
		!strings.Contains(p, "Which database?") || strings.Contains(p, "+first draft") {
		t.Errorf("the held approval, the cursor and the pane on the next task waiting:\n%s", p)
	}
	p = term.waitFor("+first draft")
	if !strings.Contains(p, "u undo") {
		t.Errorf("the change's view does not say u undoes the held approval:\n%s", p)
	}
	term.keys("u")
	term.waitFor("undone: nothing was recorded or landed")
	waiting("undone in the change's view")

	// A no from the change's view, with the line's comment: the resumed
	// agent gets it with its file and line; enter then answers the task
	// the cursor went on to, the one the pane shows.
	term.keys("Enter")
	term.waitFor("y Yes • n No")
	term.keys("n")
	term.waitFor("Feedback for the agent (optional)")
	term.keys("rename it to final.txt", "Enter")
	p = term.waitFor("answered " + gate + ": it is open again")
	if !strings.Contains(p, "› "+ask) || !strings.Contains(p, "Which database?") || strings.Contains(p, "+first draft") {
		t.Errorf("after the no, the cursor and the pane on the next task waiting:\n%s", p)
	}
	term.keys("Enter")
	term.waitFor("Other…") // ask's question, in its field
	term.keys("Escape")
	term.waitFor("q quit")
	if tk := bhTask(t, dir, ask); tk.State != task.AwaitingInput {
		t.Errorf("%s after a question left: %s", ask, tk.State)
	}
	q := bhTask(t, dir, gate).Questions[0]
	if len(q.Comments) != 1 || q.Comments[0] != (task.LineComment{Path: "report.txt", Line: 1, Text: "say final"}) {
		t.Fatalf("the no's comments: %+v", q)
	}
	if out := bhE2E(t, dir, "log", gate, "-n", "3"); !strings.Contains(out, "report.txt:1: say final") {
		t.Errorf("the history:\n%s", out)
	}
	bhE2E(t, dir, "worker", "--once") // the agent's plan expects the comment
	term.waitFor("waiting on you (2)")

	// The next round: its change was not opened, so it asks; then the window ends.
	term.keys("g")
	approve()
	term.waitFor("You have not opened the change. Approve anyway?")
	term.waitFor("y Yes • n No")
	term.keys("y")
	term.waitFor("your approval lands in")
	term.waitFor("answered " + gate + ": it is open again")
	bhE2E(t, dir, "worker", "--once")
	if _, err := os.Stat(filepath.Join(dir, "final.txt")); err != nil {
		t.Errorf("the approved work did not land: %v", err)
	}
	term.keys("q")
	term.waitFor("EXITED 0")
}

// l on bh board shows the selected task's run as its log has it: the tool
// calls and commands, the agent's words, live while it runs and kept after.
func TestBoardRunStepsInTmux(t *testing.T) {
	findTmux(t)
	root := t.TempDir()
	bin := termEnv(t, root)
	writeE2E(t, root, "agent/long.plan", `match Long job
print {"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":"go test ./..."}}]}}
hang
print {"type":"assistant","message":{"content":[{"type":"text","text":"All tests pass."}]}}
print {"status":"completed","summary":"done"}
`)
	t.Cleanup(func() { os.WriteFile(filepath.Join(root, "agent", "release"), nil, 0o644) })
	dir := filepath.Join(root, "repo")
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: [fakeagent]\n")
	long := strings.TrimSpace(bhE2E(t, dir, "add", "Long job"))
	w := exec.Command(filepath.Join(bin, "bh"), "worker", "--once")
	w.Dir = dir
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Process.Kill(); w.Wait() })

	term := newTmuxPane(t, dir, "bh board; echo EXITED $?; sleep 30")
	term.waitFor("› " + long + " Long job")
	term.waitFor("running (1)")
	for end := time.Now().Add(fakeapi.Patience(20 * time.Second)); ; time.Sleep(50 * time.Millisecond) { // the run's log begins
		if logs, _ := filepath.Glob(filepath.Join(dir, ".git", "bh", "runs", long, "*.log")); len(logs) > 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the run has no log")
		}
	}
	term.keys("l")
	term.waitFor("→ Bash: go test ./...")
	if err := os.WriteFile(filepath.Join(root, "agent", "release"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := term.waitFor("assistant: All tests pass.") // live: the view follows the log
	if !strings.Contains(p, "esc back") {
		t.Errorf("the run's view:\n%s", p)
	}
	if err := w.Wait(); err != nil {
		t.Fatalf("bh worker: %v", err)
	}
	term.keys("Escape")
	term.waitFor("q quit") // the board again: a key sent with the Escape would read as alt+key
	term.keys("q")
	term.waitFor("EXITED 0")
}
