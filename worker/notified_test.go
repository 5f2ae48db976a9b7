package worker

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// webAt makes bh serve's config say it listens at url, in a config home
// of the test's own.
func webAt(t *testing.T, url string) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if err := config.SaveWebConfig(config.WebConfig{URL: url, Token: "t0ken"}); err != nil {
		t.Fatal(err)
	}
}

// A restarted worker never sends input.requested again for a question
// already notified: two worker runs over the same repository, one webhook
// counting what it gets. The notification carries the task's page.
func TestInputRequestedOnceAcrossRestarts(t *testing.T) {
	webAt(t, "http://127.0.0.1:7070")
	s := newStore(t)
	h := newHook(t)
	s.Config.Notify = []config.NotifyConfig{h.config()}
	tk := addTask(t, s, "Asks")
	runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(nil, oneQuestion)}}})
	e, ok := h.find(tk.ID, task.EventInputRequested)
	if want := "http://127.0.0.1:7070/r/" + config.RepoKey(s.Root) + "/t/" + tk.ID; !ok || e.URL != want {
		t.Fatalf("input.requested %+v, want url %s", e, want)
	}
	runWith(t, s, Options{Runner: &fake{}})
	runWith(t, s, Options{Runner: &fake{}})
	if names := h.names(tk.ID); !slices.Equal(names, []string{task.EventInputRequested}) {
		t.Fatalf("after two restarts: %v", names)
	}
}

// A question recorded but never notified (its worker died in between, or
// no notifier listened then) is announced by the next worker, once.
func TestUnsentQuestionIsAnnouncedOnce(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	two := agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Questions: []agent.Question{
		{Question: "Which port?", Type: agent.QuestionChoice, Options: []agent.Option{{Label: "80"}, {Label: "8080"}}},
		{Question: "Which host?", Type: agent.QuestionFreeform}}}
	tk := addTask(t, s, "Asks")
	runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(nil, two)}}}) // no notifier yet
	h := newHook(t)
	s.Config.Notify = []config.NotifyConfig{h.config()}
	runWith(t, s, Options{Runner: &fake{}})
	runWith(t, s, Options{Runner: &fake{}})
	if names := h.names(tk.ID); !slices.Equal(names, []string{task.EventInputRequested}) {
		t.Fatalf("notifications %v, want one input.requested", names)
	}
	e, _ := h.find(tk.ID, task.EventInputRequested)
	p := getTask(t, s, tk.ID).Pending()
	if e.QuestionID != p[0].ID || e.Question != "Which port?" || !slices.Equal(e.Choices, []string{"80", "8080"}) {
		t.Fatalf("announced %+v", e)
	}
	for _, q := range p {
		if _, err := os.Stat(filepath.Join(notifiedDir(s, tk.ID), q.ID)); err != nil {
			t.Errorf("question %s not recorded as notified: %v", q.ID, err)
		}
	}
}

// Under onTimeout: remind, a reminder is its own event, once per period,
// whichever worker is running when the period ends.
func TestReminderOncePerPeriodAcrossRestarts(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	h := newHook(t)
	s.Config.Notify = []config.NotifyConfig{h.config()}
	s.Config.HumanTimeout, s.Config.OnTimeout = config.ParseDuration("1h"), task.OnTimeoutRemind
	tk := askAtT0(t, s, oneQuestion, func(*task.Task) {})
	for _, d := range []time.Duration{90 * time.Minute, 91 * time.Minute, 150 * time.Minute, 151 * time.Minute} {
		runWith(t, s, Options{Runner: &fake{}, Now: at(d)})
	}
	want := []string{task.EventInputRequested, task.EventInputReminder, task.EventInputReminder}
	if names := h.names(tk.ID); !slices.Equal(names, want) {
		t.Fatalf("notifications %v, want %v", names, want)
	}
}
