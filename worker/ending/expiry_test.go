package ending

import (
	"slices"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
)

// TestExpireTable: what each onTimeout policy does with each kind of
// expired question: a gate, a question with a default, one without, a
// multi-select whose default names two options.
func TestExpireTable(t *testing.T) {
	asked := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	at := asked.Add(2 * time.Hour)
	opts := []task.Option{{Label: "a"}, {Label: "b"}, {Label: "c"}}
	kinds := map[string]task.Question{
		"gate":         {Type: task.ApprovalQuestion, Question: "Land it?", Gate: true},
		"default":      {Type: task.ChoiceQuestion, Question: "Which?", Options: opts, Default: "b"},
		"no default":   {Type: task.FreeformQuestion, Question: "Why?"},
		"multi-select": {Type: task.ChoiceQuestion, Question: "Which ones?", Options: opts, MultiSelect: true, Default: "a,c"},
	}
	type want struct {
		out    Outcome
		state  task.State
		status string   // the question's
		answer []string // the question's
	}
	expired := func(out Outcome, st task.State) want { return want{out, st, task.QuestionExpired, nil} }
	for _, c := range []struct {
		policy, kind string
		want         want
	}{
		{task.OnTimeoutFail, "gate", expired(TimeoutFailed, task.Failed)},
		{task.OnTimeoutFail, "default", expired(TimeoutFailed, task.Failed)},
		{task.OnTimeoutFail, "no default", expired(TimeoutFailed, task.Failed)},
		{task.OnTimeoutFail, "multi-select", expired(TimeoutFailed, task.Failed)},
		{task.OnTimeoutDefer, "gate", expired(TimeoutDeferred, task.Deferred)},
		{task.OnTimeoutDefer, "default", expired(TimeoutDeferred, task.Deferred)},
		{task.OnTimeoutDefer, "no default", expired(TimeoutDeferred, task.Deferred)},
		{task.OnTimeoutDefer, "multi-select", expired(TimeoutDeferred, task.Deferred)},
		// An approval is never taken for granted: the task is deferred, its work parked.
		{task.OnTimeoutDefault, "gate", expired(TimeoutDeferred, task.Deferred)},
		{task.OnTimeoutDefault, "default", want{TimeoutDefaults, task.Open, task.QuestionAnswered, []string{"b"}}},
		{task.OnTimeoutDefault, "no default", expired(TimeoutDefaults, task.Open)},
		{task.OnTimeoutDefault, "multi-select", want{TimeoutDefaults, task.Open, task.QuestionAnswered, []string{"a", "c"}}},
		{task.OnTimeoutRemind, "gate", want{TimeoutReminded, task.AwaitingInput, task.QuestionPending, nil}},
		{task.OnTimeoutRemind, "default", want{TimeoutReminded, task.AwaitingInput, task.QuestionPending, nil}},
		{task.OnTimeoutRemind, "no default", want{TimeoutReminded, task.AwaitingInput, task.QuestionPending, nil}},
		{task.OnTimeoutRemind, "multi-select", want{TimeoutReminded, task.AwaitingInput, task.QuestionPending, nil}},
	} {
		q := kinds[c.kind]
		q.ID, q.Status, q.AskedAt = "q1", task.QuestionPending, asked
		due := asked.Add(time.Hour)
		q.ExpiresAt = &due
		tk := &task.Task{ID: "tm-a", State: task.AwaitingInput, Questions: []task.Question{q}}
		p := task.HumanPolicy{Allowed: true, Timeout: time.Hour, OnTimeout: c.policy}
		out, err := Expire(tk, p, DueQuestions(tk, at), at, "worker", "no answer within 1h")
		got := want{out, tk.State, tk.Questions[0].Status, tk.Questions[0].Answer}
		if err != nil || got.out != c.want.out || got.state != c.want.state || got.status != c.want.status ||
			!slices.Equal(got.answer, c.want.answer) {
			t.Errorf("%s, %s: %+v (%v), want %+v", c.policy, c.kind, got, err, c.want)
		}
		if c.policy == task.OnTimeoutRemind && !tk.Questions[0].ExpiresAt.Equal(at.Add(time.Hour)) {
			t.Errorf("remind, %s: expires %v, want an hour after the reminder", c.kind, tk.Questions[0].ExpiresAt)
		}
		if c.policy == task.OnTimeoutDefault && c.want.state == task.Open && !tk.NeedsReview {
			t.Errorf("default, %s: not marked for review", c.kind)
		}
	}
}
