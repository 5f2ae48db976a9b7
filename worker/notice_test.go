package worker

import (
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// The worker builds its notifier from the config and, on return, waits
// for the deliveries: a webhook gets input.requested and task.completed.
func TestNotificationsFromConfig(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	h := newHook(t)
	s.Config.Notify = []config.NotifyConfig{h.config()}
	asks := addTask(t, s, "Asks")
	asks = update(t, s, asks.ID, func(tk *task.Task) { tk.Priority = "P0" })
	works := update(t, s, addTask(t, s, "Works").ID, func(tk *task.Task) { tk.Priority = "P1" })
	blocks := addTask(t, s, "Blocks") // P2: the steps go in claim order
	res := agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Question: "Tabs or spaces?"}
	f := &fake{steps: []stepFn{step(nil, res), step(map[string]string{"w.txt": "w\n"}, done("Works now.")),
		step(nil, agent.Result{Status: agent.StatusBlocked, Summary: "no token"})}}
	runWith(t, s, Options{Runner: f})

	e, ok := h.find(asks.ID, task.EventInputRequested)
	q := pendingOf(t, getTask(t, s, asks.ID))
	if !ok || e.Question != "Tabs or spaces?" || e.QuestionID != q.ID || e.State != string(task.AwaitingInput) {
		t.Fatalf("input.requested: %+v", e)
	}
	if e, ok := h.find(works.ID, task.EventTaskCompleted); !ok || e.Summary != "Works now." || e.State != string(task.Closed) {
		t.Fatalf("task.completed: %+v", e)
	}
	if names := h.names(blocks.ID); !slices.Equal(names, []string{task.EventTaskBlocked}) {
		t.Fatalf("blocked task's notifications: %v", names)
	}
	// The answer goes out as it is recorded (input.received).
	if _, err := Respond(s, asks.ID, []task.Answer{{Values: []string{"tabs"}}}, ""); err != nil {
		t.Fatal(err)
	}
	f.steps = append(f.steps, step(nil, done("Tabs.")))
	runWith(t, s, Options{Runner: f})
	want := []string{task.EventInputRequested, task.EventInputReceived, task.EventTaskCompleted}
	if names := h.names(asks.ID); !slices.Equal(names, want) {
		t.Fatalf("notifications: %v", names)
	}
}

// A failing notifier is a warning, never a stop.
func TestFailingNotifierWarnsAndWorkGoesOn(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Notify = []config.NotifyConfig{{Events: []string{task.AllEvents}, Command: "echo no mail server >&2; exit 3"}}
	tk := addTask(t, s, "Works")
	evs := runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(map[string]string{"a.txt": "a\n"}, done("ok"))}}})
	if getTask(t, s, tk.ID).State != task.Closed {
		t.Fatal("the failing notifier stopped the work")
	}
	var warned bool
	for _, e := range evs {
		warned = warned || e.Kind == Warning && strings.Contains(e.Summary, "no mail server")
	}
	if !warned {
		t.Fatalf("no warning event: %+v", evs)
	}
}

func TestBadNotifyConfigIsAnError(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Notify = []config.NotifyConfig{{Events: []string{"task.exploded"}, Command: "true"}}
	err := Run(t.Context(), t.Context(), s, Options{Runner: &fake{}, Once: true})
	if err == nil || !strings.Contains(err.Error(), "task.exploded") {
		t.Fatalf("got %v", err)
	}
}
