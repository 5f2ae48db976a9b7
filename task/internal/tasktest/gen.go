package tasktest

import (
	"fmt"
	"strconv"
	"time"

	"github.com/bh-tracker/bh/task"
)

// GenID is the i-th ID of a generated store: distinct for i < 36^5, and
// scattered so that neighbours in ID order are unrelated.
func GenID(i int) string {
	v := strconv.FormatInt(int64(i)*7919%60466176, 36)
	return fmt.Sprintf("tm-%05s", v)
}

// GenTask is the i-th task of a realistic store of n: a tenth are parents,
// most others have one; a third depend on two others; a tenth wait for an
// answer, with a question and its context; every one has a few events.
func GenTask(i, n int) *task.Task {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	t := &task.Task{
		ID:          GenID(i),
		Title:       fmt.Sprintf("Task %d: make the %s handle retries", i, []string{"parser", "worker", "store", "cli", "api"}[i%5]),
		Description: "The current behaviour drops the request when the upstream times out. Retry with backoff, cap the attempts, and log each retry with the attempt number so that operators can follow it.",
		Type:        task.Types[i%len(task.Types)],
		Priority:    task.Priorities[i%len(task.Priorities)],
		State:       task.Open,
		Labels:      []string{"backend", []string{"ui", "infra", "docs"}[i%3]},
		CreatedAt:   base,
	}
	if i%10 != 0 && i%10 < 8 {
		t.Parent = GenID(i - i%10)
	}
	if i%3 == 0 && i >= 7 {
		t.DependsOn = []string{GenID(i - 1), GenID(i - 7)}
	}
	t.Record(base, task.Event{Kind: task.EventCreated, To: task.Open, By: "alice"})
	switch i % 10 {
	case 1:
		t.SetState(task.InProgress, base.Add(time.Hour), "worker", "")
		t.Record(base.Add(time.Hour), task.Event{Kind: task.EventRunStarted, Session: "4f1c2a9e-1b7d-4c55-9a0e-3f2b8d6c7e10"})
		t.SetState(task.AwaitingInput, base.Add(2*time.Hour), "worker", "")
		t.Question = "Should retries apply to POST requests too, or only to idempotent ones?"
		t.QuestionContext = "POST /orders is not idempotent today: a retried request could create a duplicate order. The client sends no idempotency key. I can add one, or skip retries for POST."
		t.Questions = []task.Question{{ID: "q1", Question: t.Question, Type: "choice", Status: task.QuestionPending, AskedAt: base.Add(2 * time.Hour),
			Options: []task.Option{{Label: "idempotent only"}, {Label: "all, with an idempotency key"}}}}
		t.SessionID = "4f1c2a9e-1b7d-4c55-9a0e-3f2b8d6c7e10"
		t.Record(base.Add(2*time.Hour), task.Event{Kind: task.EventInputRequested, QuestionID: "q1", Text: t.Question, Context: t.QuestionContext})
	case 2, 3:
		t.SetState(task.InProgress, base.Add(time.Hour), "worker", "")
		t.SetState(task.Closed, base.Add(3*time.Hour), "worker", "done")
		t.Summary = "Added retries with exponential backoff."
		t.Record(base.Add(3*time.Hour), task.Event{Kind: task.EventCommit, Commit: "9fceb02d0ae598e95dc970b74767f19372d61af8"})
	case 4:
		t.SetState(task.Blocked, base.Add(time.Hour), "bob", "waiting on the API team")
	case 5:
		t.SetState(task.Deferred, base.Add(time.Hour), "bob", "")
	case 6:
		t.SetState(task.InProgress, base.Add(time.Hour), "worker", "")
	}
	return t
}

// VsTask is the i-th task of the side-by-side store: a tenth are epics
// (parents of the nine tasks after them), a fifth depend on another task,
// 30 % are closed with a run's history, 5 % await an answer.
func VsTask(i int) *task.Task {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	t := &task.Task{
		ID:          GenID(i),
		Title:       fmt.Sprintf("Task %d: make the %s handle retries", i, []string{"parser", "worker", "store", "cli", "api"}[i%5]),
		Description: "The current behaviour drops the request when the upstream times out. Retry with backoff, cap the attempts, and log each retry.",
		Type:        task.Types[i%len(task.Types)],
		Priority:    task.Priorities[i%4],
		State:       task.Open,
		Labels:      []string{"backend", []string{"ui", "infra", "docs"}[i%3]},
		CreatedAt:   base,
	}
	if i%10 != 0 {
		t.Parent = GenID(i - i%10)
	}
	if i%5 == 1 && i > 20 {
		t.DependsOn = []string{GenID(i - 13)}
	}
	t.Record(base, task.Event{Kind: task.EventCreated, To: task.Open, By: "alice"})
	switch r := i % 20; {
	case r == 3:
		t.SetState(task.InProgress, base.Add(time.Hour), "worker", "")
		t.SetState(task.AwaitingInput, base.Add(2*time.Hour), "worker", "")
		t.Question = "Should retries apply to POST requests too, or only to idempotent ones?"
		t.Questions = []task.Question{{ID: "q1", Question: t.Question, Type: "choice", Status: task.QuestionPending, AskedAt: base.Add(2 * time.Hour),
			Options: []task.Option{{Label: "idempotent only"}, {Label: "all, with an idempotency key"}}}}
		t.Record(base.Add(2*time.Hour), task.Event{Kind: task.EventInputRequested, QuestionID: "q1", Text: t.Question})
	case r == 5 || r == 7 || r == 9 || r == 12 || r == 14 || r == 16:
		t.SetState(task.InProgress, base.Add(time.Hour), "worker", "")
		t.Record(base.Add(time.Hour), task.Event{Kind: task.EventRunStarted, Session: "4f1c2a9e-1b7d-4c55-9a0e-3f2b8d6c7e10"})
		t.SetState(task.Closed, base.Add(3*time.Hour), "worker", "done")
		t.Summary = "Added retries with exponential backoff."
		t.Record(base.Add(3*time.Hour), task.Event{Kind: task.EventCommit, Commit: "9fceb02d0ae598e95dc970b74767f19372d61af8"})
	case r == 11:
		t.SetState(task.InProgress, base.Add(time.Hour), "worker", "")
	}
	return t
}
