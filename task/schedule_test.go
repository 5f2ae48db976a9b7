package task

import (
	"strings"
	"testing"
	"time"
)

func TestParseSchedule(t *testing.T) {
	mon := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC) // a Monday, 09:00
	now := mon.Add(30 * time.Minute)
	for _, c := range []struct {
		every string
		want  time.Time // Next(mon, now)
	}{
		{"1w", mon.AddDate(0, 0, 7)},
		{"2w", mon.AddDate(0, 0, 14)},
		{"1d", mon.AddDate(0, 0, 1)},
		{"12h", mon.Add(12 * time.Hour)},
		{"45m", mon.Add(45 * time.Minute)},
		{"0 9 * * 1", mon.AddDate(0, 0, 7)},                      // cron: Mondays at 9
		{"30 17 * * 1-5", mon.Add(8*time.Hour + 30*time.Minute)}, // weekdays at 17:30: today
		{"@weekly", time.Date(2026, 12, 13, 0, 0, 0, 0, time.UTC)},
		{"@daily", time.Date(2026, 12, 8, 0, 0, 0, 0, time.UTC)},
		{"CRON_TZ=Europe/Paris 0 9 * * 1", time.Date(2026, 12, 14, 8, 0, 0, 0, time.UTC)},
	} {
		sc, err := ParseSchedule(c.every)
		if err != nil {
			t.Errorf("%q: %v", c.every, err)
			continue
		}
		if got := sc.Next(mon, now); !got.Equal(c.want) {
			t.Errorf("%q: next %v, want %v", c.every, got, c.want)
		}
	}
	for _, bad := range []string{"", "w", "0w", "-1w", "1y", "1.5d", "weekly", "0 9 * *", "0 25 * * 1", "@fortnightly", "9999w"} {
		if _, err := ParseSchedule(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
	if err := CheckSchedule(""); err != nil {
		t.Errorf("no schedule refused: %v", err)
	}
}

// Missed times make one task, for the first time after now: a weekly
// task three weeks late comes back next week, on its weekday and hour.
func TestRecurSkipsMissedTimes(t *testing.T) {
	mon := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	late := mon.AddDate(0, 0, 21).Add(2 * time.Hour) // Monday three weeks on, 11:00
	prev := &Task{ID: "tm-week", Title: "Weekly deps bump", Description: "bump them", Type: "code", Priority: "P1",
		Labels: []string{"deps"}, Land: "pr", Every: "1w", NotBefore: &mon, State: Closed, SessionID: "s1",
		Summary: "bumped", CreatedAt: mon.AddDate(0, 0, -7)}
	next := prev.Recur(late)
	if next == nil {
		t.Fatal("no next task")
	}
	if want := mon.AddDate(0, 0, 28); !next.NotBefore.Equal(want) {
		t.Fatalf("next at %v, want %v", next.NotBefore, want)
	}
	if next.Follows != "tm-week" || next.Title != prev.Title || next.Description != prev.Description ||
		next.Land != "pr" || next.Every != "1w" || strings.Join(next.Labels, ",") != "deps" || next.Priority != "P1" {
		t.Fatalf("next task does not carry the work over: %+v", next)
	}
	if next.SessionID != "" || next.Summary != "" || next.State != "" || next.ID != "" {
		t.Fatalf("next task carries the last run over: %+v", next)
	}
	// Without a time of its own, a period counts from its creation.
	prev.NotBefore = nil
	if got := prev.Recur(mon.AddDate(0, 0, 3)).NotBefore; !got.Equal(mon.AddDate(0, 0, 7)) {
		t.Fatalf("next from creation: %v", got)
	}
	prev.Every = ""
	if prev.Recur(late) != nil {
		t.Fatal("a task without a schedule recurs")
	}
}

func TestReadyWaitsForNotBefore(t *testing.T) {
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	later, earlier := now.Add(time.Minute), now.Add(-time.Minute)
	future := &Task{ID: "tm-fut", State: Open, NotBefore: &later}
	due := &Task{ID: "tm-due", State: Open, NotBefore: &earlier}
	plain := &Task{ID: "tm-pla", State: Open}
	got := Ready([]*Task{future, due, plain}, now)
	if len(got) != 2 || got[0] == future || got[1] == future {
		t.Fatalf("ready at now: %v", got)
	}
	if got := Ready([]*Task{future}, later); len(got) != 1 {
		t.Fatal("a task is not ready at its time")
	}
}

func TestStartAt(t *testing.T) {
	wed := time.Date(2026, 12, 9, 15, 0, 0, 0, time.UTC)
	if at, err := StartAt("1w", wed); at != nil || err != nil {
		t.Errorf("a period starts at once: %v, %v", at, err)
	}
	if at, err := StartAt("", wed); at != nil || err != nil {
		t.Errorf("no schedule: %v, %v", at, err)
	}
	if at, err := StartAt("0 9 * * 1", wed); err != nil || !at.Equal(time.Date(2026, 12, 14, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("a cron line starts at its first time: %v, %v", at, err)
	}
	if _, err := StartAt("0 9 * *", wed); err == nil {
		t.Error("a bad cron line accepted")
	}
}

func TestSoonest(t *testing.T) {
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	a, b, past := now.Add(time.Hour), now.Add(2*time.Hour), now.Add(-time.Hour)
	tasks := []*Task{{State: Open, NotBefore: &b}, {State: Closed, NotBefore: &past}, {State: Open, NotBefore: &a},
		{State: Deferred, NotBefore: &now}, {State: Open}}
	if got := Soonest(tasks, now); !got.Equal(a) {
		t.Fatalf("soonest %v, want %v", got, a)
	}
	if got := Soonest(tasks[3:], now); !got.IsZero() {
		t.Fatalf("soonest of none: %v", got)
	}
}

func TestEarliest(t *testing.T) {
	a, b := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC), time.Date(2026, 12, 8, 9, 0, 0, 0, time.UTC)
	for _, c := range [][3]time.Time{{a, b, a}, {b, a, a}, {{}, b, b}, {a, {}, a}, {{}, {}, {}}} {
		if got := Earliest(c[0], c[1]); !got.Equal(c[2]) {
			t.Errorf("Earliest(%v, %v) = %v", c[0], c[1], got)
		}
	}
}
