package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// bh board, driven in tmux as a person would, beside a real worker: it
// lists the task waiting on you and the running one, answers the question
// (the task file then reads exactly as after bh respond), shows the
// running agent's latest step, and stops it after a confirmation.
func TestBoardInTmux(t *testing.T) {
	findTmux(t)
	root := t.TempDir()
	bin := termEnv(t, root)
	writeE2E(t, root, "agent/ask.plan", `match Pick a database
on first
print {"status":"needs_input","summary":"the schema is drafted","questions":[{"question":"Which database?","type":"choice","options":[{"label":"PostgreSQL","description":"the server"},{"label":"SQLite"}]}]}
on resume
print {"status":"completed","summary":"done"}
`)
	writeE2E(t, root, "agent/hang.plan", "match Long job\nhang\n")
	t.Cleanup(func() { os.WriteFile(filepath.Join(root, "agent", "release"), nil, 0o644) })
	dir := filepath.Join(root, "repo")
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: [fakeagent]\n")
	ask := strings.TrimSpace(bhE2E(t, dir, "add", "Pick a database"))
	bhE2E(t, dir, "worker", "--once")
	// A twin of the waiting task in another repository, answered with bh respond.
	twin := filepath.Join(root, "twin")
	repoE2E(t, twin, "prefix: tm\n")
	writeE2E(t, twin, ".bh/tasks/"+ask+".yaml", readE2E(t, dir, ".bh/tasks/"+ask+".yaml"))
	bhE2E(t, twin, "respond", ask, "--choice", "SQLite")

	// One worker slot, held by the long job: the answered task stays open.
	long := strings.TrimSpace(bhE2E(t, dir, "add", "Long job", "--priority", "P3"))
	var logs bytes.Buffer
	w := exec.Command(filepath.Join(bin, "bh"), "worker", "-j", "1")
	w.Dir, w.Stdout, w.Stderr = dir, &logs, &logs
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Process.Kill(); w.Wait(); t.Logf("worker:\n%s", logs.String()) })
	for end := time.Now().Add(fakeapi.Patience(20 * time.Second)); bhTask(t, dir, long).State != task.InProgress; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the worker never took %s:\n%s", long, logs.String())
		}
	}
	// Command agents report no steps: one as claude's would be, in the live feed.
	step, _ := json.Marshal(store.StepLine{At: time.Now(), TaskID: long, Step: "Bash: go test ./..."})
	writeE2E(t, dir, ".git/bh/runs/steps.jsonl", string(step)+"\n")

	term := newTmuxPane(t, dir, "bh board; echo EXITED $?; sleep 30")
	term.waitFor("waiting on you (1)")
	p := term.waitFor("Which database?")
	for _, want := range []string{"› " + ask + " Pick a database", "running (1)", long + " Long job", "- PostgreSQL: the server"} {
		if !strings.Contains(p, want) {
			t.Errorf("the board lacks %q:\n%s", want, p)
		}
	}
	if !strings.Contains(term.painted(), "\x1b[") {
		t.Errorf("the board has no colour on a terminal")
	}
	term.keys("Enter")
	term.waitFor("Other…")
	term.keys("Down", "Enter")
	term.waitFor("Comment for the agent (optional)")
	term.keys("Enter") // none: the choice alone
	p = term.waitFor("answered " + ask + ": it is open again")
	if !strings.Contains(p, "waiting on you (0)") {
		t.Errorf("the board after the answer:\n%s", p)
	}
	answered := bhTask(t, dir, ask)
	if answered.State != task.Open {
		t.Fatalf("%s is %s after the answer", ask, answered.State)
	}
	sameAnswer(t, answered, bhTask(t, twin, ask))

	// The running task: its latest step, then a stop, confirmed and explained.
	term.keys("k") // up from the answered task, now ready, to the running one
	term.waitFor("latest steps")
	term.waitFor("Bash: go test ./...")
	term.keys("s")
	term.waitFor("Stop " + long + " “Long job”?")
	term.keys("y")
	term.waitFor("Why?")
	term.keys("the spec changes", "Enter")
	term.waitFor("stopped " + long + ": it is deferred")
	stopped := bhTask(t, dir, long)
	if !slices.ContainsFunc(stopped.History, func(e task.Event) bool { return e.By == "human" && e.Text == "the spec changes" }) ||
		stopped.State != task.Deferred {
		t.Errorf("after the stop: %s, history %+v", stopped.State, stopped.History)
	}
	term.keys("q")
	term.waitFor("EXITED 0")
}

// sameAnswer fails unless got (answered on the board) records its answers
// as want (bh respond) does: the same questions, answers and events,
// whatever their times, but for who answered: the board, not the CLI (bh
// stats tells the channels apart by it).
func sameAnswer(t *testing.T, got, want *task.Task) {
	t.Helper()
	strip := func(tk *task.Task) string {
		var b strings.Builder
		fmt.Fprintf(&b, "state %s\nresponse %q\n", tk.State, tk.HumanResponse)
		for _, q := range tk.Questions {
			fmt.Fprintf(&b, "question %s %s %q %q\n", q.ID, q.Status, q.Answer, q.Comment)
		}
		for _, e := range tk.History {
			e.At = time.Time{}
			if tk == got && e.By == "board" {
				e.By = "human"
			}
			fmt.Fprintf(&b, "event %+v\n", e)
		}
		return b.String()
	}
	if !slices.ContainsFunc(got.History, func(e task.Event) bool { return e.Kind == task.EventInputReceived && e.By == "board" }) {
		t.Error("the board's answer is not recorded as the board's")
	}
	if g, w := strip(got), strip(want); g != w {
		t.Errorf("answered on the board:\n%s\nanswered with bh respond:\n%s", g, w)
	}
}

// c on the board opens the waiting task's session in the same terminal
// (bh continue); when the human leaves it, the board is back and says so.
// NO_COLOR holds for the board's own widgets too.
func TestBoardContinueInTmux(t *testing.T) {
	dir, asked := awaitingTakeover(t)
	term := newTmuxPane(t, dir, "NO_COLOR=1 bh board; echo EXITED $?; sleep 30")
	term.waitFor("Which way?")
	term.keys("Enter") // the question, in a field of its own
	term.waitFor("enter submit")
	if p := term.painted(); strings.Contains(p, "\x1b[") {
		t.Errorf("colour despite NO_COLOR:\n%q", p)
	}
	term.keys("Escape")
	term.waitFor("cancelled: nothing was changed")
	term.keys("c")
	term.waitWithin("accept edits on", claudePatience)
	term.keys(takeoverSaid)
	term.waitWithin(takeoverSaid, claudePatience)
	term.keys("Enter")
	term.waitWithin("Going left.", claudePatience)
	term.exitClaude()
	p := term.waitWithin("left the session of "+asked.ID, claudePatience)
	if !strings.Contains(p, "waiting on you (0)") {
		t.Errorf("the board after the session:\n%s", p)
	}
	if open := bhTask(t, dir, asked.ID); open.State != task.Open {
		t.Errorf("after the session: %s", open.State)
	}
	term.keys("q")
	term.waitFor("EXITED 0")
}
