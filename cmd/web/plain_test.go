package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// The task's page and the inbox say states, the history and the agent's
// runs in words: no internal name (awaiting_input, run.started, the ref
// its work is kept under) and no result JSON the agent printed.
func TestPagesSayItInWords(t *testing.T) {
	s := newSite(t)
	s.park()
	at := time.Date(2026, 1, 1, 11, 0, 0, 0, time.UTC)
	if _, err := s.st.Update("tm-ask1", func(tk *task.Task) error {
		tk.History = append(tk.History,
			task.Event{At: at, Kind: task.EventRunStarted, By: "w1", Session: "s-1"},
			task.Event{At: at, Kind: task.EventRunFinished, By: "w1", Status: "needs_input", Text: "asks"},
			task.Event{At: at, Kind: task.EventParked, By: "w1", Text: git.ParkRef("tm-ask1") + ": schema.sql"},
			task.Event{At: at, Kind: task.EventCheck, By: "w1", Command: "go test ./...", ExitCode: 1},
			task.Event{At: at, Kind: task.EventState, From: task.InProgress, To: task.AwaitingInput, By: "w1"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	dir := store.RunDir(s.st, "tm-ask1")
	os.MkdirAll(dir, 0o755)
	log := "bh run log\n----- stdout -----\n" +
		`{"type":"assistant","message":{"content":[{"type":"text","text":"Reading the schema."}]}}` + "\n" +
		`{"status":"needs_input","summary":"asks","questions":[{"question":"Which database?"}]}` + "\n" +
		`{"type":"result","subtype":"success","result":"{\"status\":\"needs_input\",\"summary\":\"asks\"}"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "20260101T110000Z.log"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	_, page := s.do("GET", s.base, nil, nil)
	_, inbox := s.do("GET", "/", nil, nil)
	for _, leak := range []string{"awaiting_input", "in_progress", "run.started", "run.finished", "refs/bh/", `{&#34;status`, `"status"`, "needs_input"} {
		if strings.Contains(page, ">"+leak) || strings.Contains(page, leak+"<") || strings.Contains(page, " "+leak) {
			t.Errorf("the task's page shows %q", leak)
		}
		if strings.Contains(inbox, ">"+leak+"<") {
			t.Errorf("the inbox shows %q", leak)
		}
	}
	for _, want := range []string{
		`<span class="state state-awaiting_input">waiting on an answer</span>`,
		`<td class="ev">the agent started</td>`,
		`<td class="ev">work kept</td><td>w1</td><td></td><td class="text">schema.sql</td>`,
		`<td class="text">go test ./...: failed</td>`,
		`<td class="ev">moved at work → waiting on an answer</td>`,
		`<b>agent:</b> <span class="text">Reading the schema.</span>`,
		`<b>run:</b> <span class="text">ended: asks</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
