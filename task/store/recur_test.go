package store

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
)

// followers are the tasks that follow id.
func followers(t *testing.T, s *Store, id string) []*task.Task {
	t.Helper()
	tasks, _, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	return task.Followers(tasks, id)
}

func TestClosingARecurringTaskMakesTheNext(t *testing.T) {
	s := newStore(t)
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC) // a Monday
	s.Now = func() time.Time { return now }
	week, err := s.Create(&task.Task{Title: "Bump the deps", Labels: []string{"deps"}, Every: "1w"})
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(40 * time.Minute)
	closeIt := func(t *task.Task) error { return t.SetState(task.Closed, now, "human", "") }
	if _, err := s.Update(week.ID, closeIt); err != nil {
		t.Fatal(err)
	}
	next := followers(t, s, week.ID)
	if len(next) != 1 {
		t.Fatalf("%d tasks follow the closed one, want 1", len(next))
	}
	n := next[0]
	if want := time.Date(2026, 12, 14, 9, 0, 0, 0, time.UTC); n.NotBefore == nil || !n.NotBefore.Equal(want) ||
		n.State != task.Open || n.Title != week.Title || n.Every != "1w" || n.Labels[0] != "deps" {
		t.Fatalf("next task: %+v, want it open for %v", n, want)
	}
	if got := task.Ready([]*task.Task{n}, now); len(got) != 0 {
		t.Fatal("the next task is ready before its time")
	}
	// Reopened and closed again, it is still followed once.
	if _, err := s.Update(week.ID, func(t *task.Task) error { return t.SetState(task.Open, now, "human", "") }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(week.ID, closeIt); err != nil {
		t.Fatal(err)
	}
	if got := followers(t, s, week.ID); len(got) != 1 {
		t.Fatalf("%d tasks follow it after a second close", len(got))
	}
}

// A closing write that fails leaves no follower, and nothing closed.
func TestFailedCloseMakesNoNext(t *testing.T) {
	s := newStore(t)
	cron, err := s.Create(&task.Task{Title: "Mondays", Every: "CRON_TZ=UTC 0 9 * * 1"})
	if err != nil {
		t.Fatal(err)
	}
	landFailed := errors.New("landing failed")
	_, err = s.UpdateThen(cron.ID, func(t *task.Task) error { return t.SetState(task.Closed, s.now(), "w", "") },
		func([]byte) error { return landFailed })
	if !errors.Is(err, landFailed) {
		t.Fatal(err)
	}
	if got := followers(t, s, cron.ID); len(got) != 0 {
		t.Fatalf("a failed close left %d followers", len(got))
	}
	if got, _ := s.Get(cron.ID); got.State != task.Open {
		t.Fatalf("state %s", got.State)
	}
}

// A task closed by hand (bh edit) is followed too.
func TestEditClosingMakesTheNext(t *testing.T) {
	s := newStore(t)
	daily, err := s.Create(&task.Task{Title: "Daily", Every: "CRON_TZ=UTC 0 9 * * *"})
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(s.Path(daily.ID))
	if err != nil {
		t.Fatal(err)
	}
	edited := *daily
	edited.State = task.Closed
	if err := s.Replace(&edited, orig, orig); err != nil {
		t.Fatal(err)
	}
	next := followers(t, s, daily.ID)
	if len(next) != 1 || next[0].NotBefore.Hour() != 9 || !next[0].NotBefore.After(daily.CreatedAt) {
		t.Fatalf("followers after bh edit: %v", next)
	}
}

// A memo made while a task waits for its time holds until that time only:
// what is ready changes then, though no file does.
func TestMemoHoldsUntilAScheduledTime(t *testing.T) {
	s := newStore(t)
	writeStore(t, s, 10)
	settle()
	_, _, _, st, err := s.ListMemo("list", "", true)
	if err != nil || !st.Valid() {
		t.Fatalf("no state to keep a memo with: %v", err)
	}
	at := time.Date(2026, 12, 14, 9, 0, 0, 0, time.UTC)
	now := at.Add(-time.Minute)
	s.Now = func() time.Time { return now }
	if err := s.SaveMemo("list", "k", st.Until(at), []byte("before\n")); err != nil {
		t.Fatal(err)
	}
	if got := memo(s, "k"); got != "before\n" {
		t.Fatalf("memo before its time: %q", got)
	}
	now = at
	if got := memo(s, "k"); got != "(none)" {
		t.Fatalf("memo at its time: %q", got)
	}
}
