package notify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// logRec collects log lines; the Notifier serialises calls, the mutex is for
// the test's own reads.
type logRec struct {
	mu    sync.Mutex
	lines []string
}

func (l *logRec) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logRec) all() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

var fast = tuning{queue: 64, attempts: 3, backoff: time.Millisecond}

func start(t *testing.T, tune tuning, cfgs ...config.NotifyConfig) (*Notifier, *logRec) {
	t.Helper()
	l := &logRec{}
	n, err := newNotifier(cfgs, l.logf, tune)
	if err != nil {
		t.Fatalf("new: %v", err)
	}
	return n, l
}

func closeNow(t *testing.T, n *Notifier) {
	t.Helper()
	if err := n.Close(context.Background()); err != nil {
		t.Fatalf("close: %v", err)
	}
}

func TestNewRejectsBadEntries(t *testing.T) {
	ok := config.NotifyConfig{Events: []string{"*"}, Desktop: true}
	for _, tc := range []struct {
		name string
		cfg  config.NotifyConfig
		want string
	}{
		{"bad timeout", config.NotifyConfig{Events: []string{"*"}, Command: "true", Timeout: config.ParseDuration("soon")}, `timeout "soon"`},
		{"negative timeout", config.NotifyConfig{Events: []string{"*"}, Command: "true", Timeout: config.ParseDuration("-1s")}, `timeout "-1s"`},
		{"no target", config.NotifyConfig{Events: []string{"*"}}, "no command, webhook or desktop target"},
		{"no events", config.NotifyConfig{Command: "true"}, `no events listed`},
		{"unknown event", config.NotifyConfig{Events: []string{"task.done"}, Command: "true"}, `unknown event "task.done"`},
		{"bad webhook", config.NotifyConfig{Events: []string{"*"}, Webhook: "ftp://example.com/SECRET"}, "http or https URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New([]config.NotifyConfig{ok, tc.cfg}, nil)
			if err == nil {
				t.Fatal("New accepted a bad entry")
			}
			if msg := err.Error(); !strings.Contains(msg, "notify entry 2 (") || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q should name entry 2 and say %q", msg, tc.want)
			}
			if strings.Contains(err.Error(), "SECRET") {
				t.Errorf("error %q leaks the webhook path", err)
			}
		})
	}
}

func TestNilAndEmptyNotifier(t *testing.T) {
	var nilN *Notifier
	nilN.Send(Event{Name: task.EventTaskFailed})
	if err := nilN.Close(context.Background()); err != nil {
		t.Errorf("nil close: %v", err)
	}
	n, err := New(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	n.Send(Event{Name: task.EventTaskFailed})
	closeNow(t, n)
}

func TestEventFiltering(t *testing.T) {
	dir := t.TempDir()
	only, every := filepath.Join(dir, "only"), filepath.Join(dir, "every")
	n, l := start(t, fast,
		config.NotifyConfig{Events: []string{task.EventTaskFailed, task.EventInputExpired}, Command: `echo "$BH_EVENT" >> '` + only + `'`},
		config.NotifyConfig{Events: []string{task.AllEvents}, Command: `echo "$BH_EVENT" >> '` + every + `'`},
	)
	for _, name := range []string{task.EventInputRequested, task.EventTaskFailed, task.EventTaskCompleted, task.EventInputExpired} {
		n.Send(Event{Name: name, TaskID: "tm-1"})
	}
	closeNow(t, n)
	if got := readFile(t, only); got != "task.failed\ninput.expired\n" {
		t.Errorf("listed events fired %q", got)
	}
	if got := readFile(t, every); got != "input.requested\ntask.failed\ntask.completed\ninput.expired\n" {
		t.Errorf(`"*" fired %q`, got)
	}
	if s := l.all(); s != "" {
		t.Errorf("unexpected log: %s", s)
	}
}

func TestSendAfterCloseIsDropped(t *testing.T) {
	file := filepath.Join(t.TempDir(), "out")
	n, l := start(t, fast, config.NotifyConfig{Events: []string{"*"}, Command: "echo x >> '" + file + "'"})
	closeNow(t, n)
	n.Send(Event{Name: task.EventTaskFailed, TaskID: "tm-1"})
	closeNow(t, n) // twice is fine
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("event sent after close was delivered (stat: %v)", err)
	}
	if !strings.Contains(l.all(), "task.failed for tm-1 after close, dropped") {
		t.Errorf("drop not logged: %q", l.all())
	}
}

func TestFromTask(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	tk := &task.Task{ID: "tm-ab", Title: "Fix it", State: task.AwaitingInput, Summary: "half done", Question: "which db?",
		Questions: []task.Question{
			{ID: "q1", Question: "old?", Status: task.QuestionAnswered},
			{ID: "q2", Question: "which db?", Type: task.ChoiceQuestion, Status: task.QuestionPending,
				Options: []task.Option{{Label: "pg"}, {Label: "sqlite"}}},
			{ID: "q3", Question: "and the port?", Status: task.QuestionPending},
		}}
	web := config.WebConfig{URL: "http://127.0.0.1:7070/", Token: "SECRET"}
	e := FromTask(task.EventInputRequested, tk, "/src/shop", web, now)
	choice := `bh respond tm-ab --repo /src/shop --question 2 --choice <pg|sqlite>`
	want := Event{Name: task.EventInputRequested, TaskID: "tm-ab", Title: "Fix it", State: "awaiting_input",
		Question: "which db?", QuestionID: "q2", Summary: "half done", At: now.UTC(),
		Repo: "shop", RepoPath: "/src/shop", Choices: []string{"pg", "sqlite"}, Respond: choice,
		URL: "http://127.0.0.1:7070/r/" + config.RepoKey("/src/shop") + "/t/tm-ab",
		Questions: []Question{
			{ID: "q2", Type: task.ChoiceQuestion, Text: "which db?", Choices: []string{"pg", "sqlite"}, Respond: choice},
			{ID: "q3", Type: task.FreeformQuestion, Text: "and the port?",
				Respond: `bh respond tm-ab --repo /src/shop --question 3 <answer>`},
		}}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("FromTask = %+v, want %+v", e, want)
	}
	// Without bh serve there is no page, and a closed task no question.
	tk.State, tk.Questions[1].Status, tk.Questions[2].Status = task.Closed, task.QuestionAnswered, task.QuestionAnswered
	e = FromTask(task.EventTaskCompleted, tk, "/src/shop", config.WebConfig{}, now)
	if e.URL != "" || e.QuestionID != "" || e.Choices != nil || e.Respond != "" || e.Questions != nil {
		t.Errorf("closed task without bh serve: %+v", e)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
