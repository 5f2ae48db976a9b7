package notify

import (
	"encoding/json"
	"github.com/bh-tracker/bh/task"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task/config"
)

func TestCommandEnv(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "env")
	line := `printf '%s\0' "$BH_EVENT" "$BH_TASK_ID" "$BH_TASK_TITLE" "$BH_QUESTION" "$BH_STATE" "$BH_SUMMARY" "$BH_URL" "$BH_EVENT_JSON" > '` + out + `'`
	n, l := start(t, fast, config.NotifyConfig{Events: []string{task.EventInputRequested}, Command: line})
	// The question is agent-written text: it must reach the command as data, never as shell.
	e := Event{Name: task.EventInputRequested, TaskID: "tm-9", Title: "Pick a db", State: "awaiting_input",
		Question: "it's \"$(touch " + filepath.Join(dir, "pwned") + ")\"\nsecond line", Summary: "sketched",
		URL: "http://127.0.0.1:7070/r/shop-abc123/t/tm-9",
		At:  time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	n.Send(e)
	closeNow(t, n)
	got := strings.Split(strings.TrimSuffix(readFile(t, out), "\x00"), "\x00")
	want := []string{e.Name, e.TaskID, e.Title, e.Question, e.State, e.Summary, e.URL}
	if len(got) != 8 {
		t.Fatalf("command wrote %q", got)
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("env var %d = %q, want %q", i, got[i], w)
		}
	}
	var back Event
	if err := json.Unmarshal([]byte(got[7]), &back); err != nil || !reflect.DeepEqual(back, e) {
		t.Errorf("BH_EVENT_JSON = %s (err %v), want %+v", got[7], err, e)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("the question was run as shell")
	}
	if s := l.all(); s != "" {
		t.Errorf("unexpected log: %s", s)
	}
}

func TestCommandFailureIsLoggedAndDeliveryGoesOn(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ids")
	line := `if [ "$BH_TASK_ID" = tm-bad ]; then echo starting; echo boom >&2; exit 3; fi; echo "$BH_TASK_ID" >> '` + out + `'`
	n, l := start(t, fast, config.NotifyConfig{Events: []string{"*"}, Command: line})
	n.Send(Event{Name: task.EventTaskFailed, TaskID: "tm-bad"})
	n.Send(Event{Name: task.EventTaskFailed, TaskID: "tm-good"})
	closeNow(t, n)
	if got := readFile(t, out); got != "tm-good\n" {
		t.Errorf("after a failure the command saw %q", got)
	}
	if s := l.all(); !strings.Contains(s, `notify: command "if [`) || !strings.Contains(s, "task.failed for tm-bad: exit status 3: boom") {
		t.Errorf("failure not logged with its output: %q", s)
	}
}

func TestCommandTimeout(t *testing.T) {
	n, l := start(t, fast, config.NotifyConfig{Events: []string{"*"}, Command: "exec sleep 30", Timeout: config.ParseDuration("100ms")})
	n.Send(Event{Name: task.EventTaskCompleted, TaskID: "tm-1"})
	closeNow(t, n)
	if s := l.all(); !strings.Contains(s, "task.completed for tm-1: killed after 100ms") {
		t.Errorf("timeout not logged: %q", s)
	}
}

// TestCommandLeavesNothingBehind: a command that leaves a background child
// holding its output is delivered, and the child dies with it.
func TestCommandLeavesNothingBehind(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	n, l := start(t, fast, config.NotifyConfig{Events: []string{"*"}, Command: "sleep 1000 & echo $! > '" + pidFile + "'"})
	n.Send(Event{Name: task.EventTaskCompleted, TaskID: "tm-1"})
	closeNow(t, n)
	if s := l.all(); s != "" {
		t.Errorf("unexpected log: %s", s)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(readFile(t, pidFile)))
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); syscall.Kill(pid, 0) == nil && !zombie(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the command's child %d outlived it", pid)
		}
	}
}

func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err == nil && strings.Contains(string(stat), ") Z ")
}
