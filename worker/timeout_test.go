package worker

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/notify"
)

var t0 = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

func at(d time.Duration) func() time.Time { return func() time.Time { return t0.Add(d) } }

// askAtT0 makes a task whose agent asked res at t0, with the task's
// policy set by edit.
func askAtT0(t *testing.T, s *store.Store, res agent.Result, edit func(tk *task.Task)) *task.Task {
	t.Helper()
	tk := update(t, s, addTask(t, s, "Asks").ID, edit)
	runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(nil, res)}}, Now: at(0)})
	got := getTask(t, s, tk.ID)
	if got.State != task.AwaitingInput {
		t.Fatalf("%s is %s", got.ID, got.State)
	}
	return got
}

var oneQuestion = agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Question: "Which port?"}

// checkAt runs CheckTimeouts at t0+d and returns the notifications sent.
func checkAt(t *testing.T, s *store.Store, d time.Duration, id string) []string {
	t.Helper()
	h := newHook(t)
	n, closeN := h.notifier(t)
	if err := checkTimeoutsAt(s, t0.Add(d), n); err != nil {
		t.Fatal(err)
	}
	closeN()
	return h.names(id)
}

func TestQuestionsExpireAfterTheHumanTimeout(t *testing.T) {
	s := newStore(t)
	tk := askAtT0(t, s, oneQuestion, func(tk *task.Task) { tk.HumanTimeout, tk.OnTimeout = "2h", task.OnTimeoutFail })
	q := pendingOf(t, tk)
	if !q.AskedAt.Equal(t0) || q.ExpiresAt == nil || !q.ExpiresAt.Equal(t0.Add(2*time.Hour)) {
		t.Fatalf("asked %v, expires %v", q.AskedAt, q.ExpiresAt)
	}
	if names := checkAt(t, s, 2*time.Hour-time.Second, tk.ID); len(names) != 0 || getTask(t, s, tk.ID).State != task.AwaitingInput {
		t.Fatalf("expired early: %v", names)
	}
	names := checkAt(t, s, 2*time.Hour, tk.ID)
	got := getTask(t, s, tk.ID)
	if got.State != task.Failed || got.Questions[0].Status != task.QuestionExpired {
		t.Fatalf("after expiry: %s, %+v", got.State, got.Questions)
	}
	if e, ok := lastEvent(got, task.EventInputExpired); !ok || e.QuestionID != q.ID || !strings.Contains(e.Text, "no answer within 2h") {
		t.Fatalf("input.expired event: %+v", e)
	}
	if !slices.Equal(names, []string{task.EventInputExpired, task.EventTaskFailed}) {
		t.Fatalf("notifications: %v", names)
	}
}

func TestOnTimeoutDefer(t *testing.T) {
	s := newStore(t)
	s.Config.OnTimeout = task.OnTimeoutFail // the task's own setting wins
	tk := askAtT0(t, s, oneQuestion, func(tk *task.Task) { tk.OnTimeout = task.OnTimeoutDefer })
	names := checkAt(t, s, task.DefaultHumanTimeout, tk.ID)
	got := getTask(t, s, tk.ID)
	if got.State != task.Deferred || got.Questions[0].Status != task.QuestionExpired || count(got, task.EventInputExpired) != 1 {
		t.Fatalf("deferred: %s %+v", got.State, got.Questions)
	}
	if !slices.Equal(names, []string{task.EventInputExpired}) {
		t.Fatalf("notifications: %v", names)
	}
}

func TestOnTimeoutDefaultAnswersAndResumes(t *testing.T) {
	s := newStore(t)
	s.Config.OnTimeout = task.OnTimeoutDefault
	res := agent.Result{Status: agent.StatusNeedsInput, Summary: "Three decisions.", Questions: []agent.Question{
		{Question: "Which database?", Header: "DB", Type: agent.QuestionChoice, Default: "Postgres",
			Options: []agent.Option{{Label: "Postgres"}, {Label: "SQLite"}}},
		{Question: "Which port?", Type: agent.QuestionFreeform},
		{Question: "Which flavours?", Type: agent.QuestionChoice, MultiSelect: true, Default: "a, c",
			Options: []agent.Option{{Label: "a"}, {Label: "b"}, {Label: "c"}}},
	}}
	tk := askAtT0(t, s, res, func(*task.Task) {})
	names := checkAt(t, s, 25*time.Hour, tk.ID)
	got := getTask(t, s, tk.ID)
	if got.State != task.Open || !got.NeedsReview {
		t.Fatalf("after defaults: state %s needsReview %v", got.State, got.NeedsReview)
	}
	db, port, fl := got.Questions[0], got.Questions[1], got.Questions[2]
	if db.Status != task.QuestionAnswered || !slices.Equal(db.Answer, []string{"Postgres"}) ||
		port.Status != task.QuestionExpired || len(port.Answer) != 0 ||
		fl.Status != task.QuestionAnswered || !slices.Equal(fl.Answer, []string{"a", "c"}) {
		t.Fatalf("questions: %+v", got.Questions)
	}
	if !slices.Equal(names, []string{task.EventInputExpired}) {
		t.Fatalf("notifications: %v", names)
	}
	f := &fake{steps: []stepFn{step(nil, done("went with the defaults"))}}
	runWith(t, s, Options{Runner: f, Now: at(25 * time.Hour)})
	p := f.requests()[0].Prompt
	for _, want := range []string{"Which database?", "Answer: Postgres", "Which port?", "(no answer)", "Answer: a, c"} {
		if !strings.Contains(p, want) {
			t.Errorf("resume prompt lacks %q:\n%s", want, p)
		}
	}
	if got := getTask(t, s, tk.ID); got.State != task.Closed || !got.NeedsReview {
		t.Fatalf("resumed: %s, needsReview %v", got.State, got.NeedsReview)
	}
}

// An approval nobody gave is never taken as a yes: the task is deferred
// with its work parked.
func TestOnTimeoutDefaultDefersAnUnansweredApproval(t *testing.T) {
	s := newStore(t)
	s.Config.OnTimeout = task.OnTimeoutDefault
	tk := update(t, s, addTask(t, s, "Gated").ID, func(tk *task.Task) { tk.Gate = task.GateApproval })
	runWith(t, s, Options{Now: at(0), Runner: &fake{steps: []stepFn{step(map[string]string{"g.txt": "g\n"}, done("g"))}}})
	checkAt(t, s, 24*time.Hour, tk.ID)
	got := getTask(t, s, tk.ID)
	if got.State != task.Deferred || got.Questions[0].Status != task.QuestionExpired || !refExists(s.Root, git.ParkRef(tk.ID)) {
		t.Fatalf("expired approval: %s %+v", got.State, got.Questions)
	}
}

func TestOnTimeoutRemindExtends(t *testing.T) {
	s := newStore(t)
	s.Config.HumanTimeout, s.Config.OnTimeout = config.ParseDuration("1h"), task.OnTimeoutRemind
	tk := askAtT0(t, s, oneQuestion, func(*task.Task) {})
	names := checkAt(t, s, 90*time.Minute, tk.ID)
	got := getTask(t, s, tk.ID)
	q := pendingOf(t, got)
	if got.State != task.AwaitingInput || !q.ExpiresAt.Equal(t0.Add(150*time.Minute)) {
		t.Fatalf("after reminder: %s, expires %v", got.State, q.ExpiresAt)
	}
	if !slices.Equal(names, []string{task.EventInputReminder}) || count(got, task.EventInputReminder) != 1 {
		t.Fatalf("notifications %v, history %d reminders", names, count(got, task.EventInputReminder))
	}
	if names := checkAt(t, s, 149*time.Minute, tk.ID); len(names) != 0 {
		t.Fatalf("reminded again before the new expiry: %v", names)
	}
	if names := checkAt(t, s, 150*time.Minute, tk.ID); !slices.Equal(names, []string{task.EventInputReminder}) {
		t.Fatalf("second reminder: %v", names)
	}
	// Still answerable as ever.
	if got, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"8080"}}}, ""); err != nil || got.State != task.Open {
		t.Fatalf("answer after reminders: %v", err)
	}
}

// A running worker enforces timeouts by itself, waking at the expiry: the
// tick here is an hour, so only the expiry timer can do it.
func TestWorkerWakesAtTheNextExpiry(t *testing.T) {
	s := newStore(t)
	tk := update(t, s, addTask(t, s, "Times out").ID, func(tk *task.Task) { tk.HumanTimeout, tk.OnTimeout = "1s", task.OnTimeoutFail })
	expired := make(chan Event, 1)
	report := func(e Event) {
		if e.Kind == Expired {
			expired <- e
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		errc <- Run(ctx, ctx, s, Options{Runner: &fake{steps: []stepFn{step(nil, oneQuestion)}}, Tick: time.Hour, Report: report})
	}()
	select {
	case e := <-expired:
		if e.Task != tk.ID || e.Outcome != ending.TimeoutFailed || e.Question != "Which port?" {
			t.Fatalf("expired event: %+v", e)
		}
	case err := <-errc:
		t.Fatalf("worker ended: %v", err)
	case <-time.After(fakeapi.Patience(20 * time.Second)):
		t.Fatal("the worker did not wake at the expiry")
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if got := getTask(t, s, tk.ID); got.State != task.Failed {
		t.Fatalf("expired task is %s", got.State)
	}
}

// A worker starting after the expiry applies the policy before anything.
func TestWorkerEnforcesTimeoutsAtStart(t *testing.T) {
	s := newStore(t)
	tk := askAtT0(t, s, oneQuestion, func(tk *task.Task) { tk.OnTimeout = task.OnTimeoutDefer })
	evs := runWith(t, s, Options{Runner: &fake{}, Now: at(48 * time.Hour)})
	if got := getTask(t, s, tk.ID); got.State != task.Deferred {
		t.Fatalf("task is %s", got.State)
	}
	if len(evs) == 0 || evs[0].Kind != Expired || evs[0].Outcome != ending.TimeoutDeferred {
		t.Fatalf("events: %+v", evs)
	}
}

// Under onTimeout: fail, an answer that comes late is still taken while
// the task has not moved on: the question waits again, is answered, and
// the task reopens to resume its session. Once it has moved on, no.
func TestLateAnswerRevivesAnExpiredQuestion(t *testing.T) {
	s := newStore(t)
	tk := askAtT0(t, s, oneQuestion, func(tk *task.Task) { tk.HumanTimeout, tk.OnTimeout = "1h", task.OnTimeoutFail })
	checkAt(t, s, 2*time.Hour, tk.ID)
	if st := getTask(t, s, tk.ID).State; st != task.Failed {
		t.Fatalf("after the timeout: %s", st)
	}
	got, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"8080"}}}, "late")
	if err != nil {
		t.Fatalf("a late answer was refused: %v", err)
	}
	if got.State != task.Open || got.Questions[0].Status != task.QuestionAnswered || got.Questions[0].Answer[0] != "8080" {
		t.Fatalf("after the late answer: %s %+v", got.State, got.Questions[0])
	}
	// Moved on (reopened, then put aside): a late answer has nothing to revive.
	s = newStore(t)
	other := askAtT0(t, s, oneQuestion, func(tk *task.Task) { tk.HumanTimeout, tk.OnTimeout = "1h", task.OnTimeoutFail })
	checkAt(t, s, 2*time.Hour, other.ID)
	update(t, s, other.ID, func(tk *task.Task) { tk.SetState(task.Open, t0.Add(3*time.Hour), "human", "reopened") })
	update(t, s, other.ID, func(tk *task.Task) { tk.SetState(task.Deferred, t0.Add(3*time.Hour), "human", "put aside") })
	if _, err := Respond(s, other.ID, []task.Answer{{Values: []string{"80"}}}, "late"); err == nil {
		t.Fatal("an answer revived a question the task had moved on from")
	}
}

// checkTimeoutsAt applies the questions' onTimeout policies as the worker
// does at now, sending the notifications through n (which may be nil).
func checkTimeoutsAt(s *store.Store, now time.Time, n *notify.Notifier) error {
	w := &worker{s: s, notifier: n, opt: Options{Now: func() time.Time { return now }}}
	w.opt.defaults(s.Config)
	_, err := w.checkTimeouts()
	return err
}
