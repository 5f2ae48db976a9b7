package outage

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
	"github.com/bh-tracker/bh/worker/notify"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

var t0 = time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)

// limitsIn is a worker's limits in a new repository sharing a bare
// remote, origin; it returns the remote's path.
func limitsIn(t *testing.T, auto bool) (*Limits, *time.Time, string) {
	t.Helper()
	s := storetest.New(t)
	dir := s.Root
	bare := filepath.Join(t.TempDir(), "origin.git")
	gittest.Out(t, dir, "init", "-q", "--bare", bare)
	gittest.Out(t, dir, "remote", "add", "origin", bare)
	s.Config.Remote = "origin"
	s.Config.Limits.AutoResume = &auto
	r, err := git.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	now := t0
	l := NewLimits(s, r, "command:sh", []string{"ANTHROPIC_API_KEY=sk-secret"}, &Limits{By: "w1",
		Now: func() time.Time { return now }, Tell: func(string, time.Duration) {}, Send: func(notify.Event) {},
		Warn: func(f string, a ...any) { t.Errorf(f, a...) }})
	return l, &now, bare
}

func rejected(at time.Time) agent.Limit {
	return agent.Limit{Status: agent.LimitRejected, ResetsAt: at, Window: "five_hour"}
}

// Without a known reset the backoff doubles, up to its cap; a run that
// gets through ends it.
func TestBackoffDoublesOnlyWithoutAReset(t *testing.T) {
	l, _, _ := limitsIn(t, true)
	var got []time.Duration
	for range 4 {
		got = append(got, l.Backoff(time.Minute, 3*time.Minute, "overloaded"))
	}
	if want := []time.Duration{time.Minute, 2 * time.Minute, 3 * time.Minute, 3 * time.Minute}; !slices.Equal(got, want) {
		t.Fatalf("backoffs %v, want %v", got, want)
	}
	l.Back()
	if w := l.Wait(0); w != 0 {
		t.Fatalf("still waiting %s after a run got through", w)
	}
	if HoldOf(&agent.Limit{Status: agent.LimitRejected}, "w", t0) != nil {
		t.Error("a rejection without its reset made a hold (it backs off instead)")
	}
	if HoldOf(&agent.Limit{Status: agent.LimitWarning, ResetsAt: t0.Add(time.Hour)}, "w", t0) != nil {
		t.Error("a warning made a hold")
	}
}

// A rejection with its reset holds runs back to the reset exactly, is
// shared with the remote at once, and is told once when it begins and
// when it ends (limit.resumed).
func TestRejectionHoldsToItsResetAndIsShared(t *testing.T) {
	l, now, bare := limitsIn(t, true)
	var told []string
	var sent []notify.Event
	l.Tell = func(s string, _ time.Duration) { told = append(told, s) }
	l.Send = func(e notify.Event) { sent = append(sent, e) }
	l.Said(rejected(t0.Add(90 * time.Minute)))
	if w := l.Wait(time.Second); w != 90*time.Minute {
		t.Fatalf("waits %s, want the 1h30m to the reset", w)
	}
	l.Wait(time.Second)
	if len(told) != 1 || !strings.Contains(told[0], "paused by the five-hour usage limit until") {
		t.Fatalf("told %q", told)
	}
	if got := gittest.Out(t, bare, "for-each-ref", "--format=%(refname)", "refs/bh/limits/"); got != l.Ref || strings.Contains(got, "sk-secret") {
		t.Fatalf("the remote holds %q, want %s", got, l.Ref)
	}
	*now = t0.Add(90 * time.Minute)
	if w := l.Wait(time.Second); w != 0 {
		t.Fatalf("waits %s at the reset", w)
	}
	if len(sent) != 1 || sent[0].Name != task.EventLimitResumed || len(told) != 2 {
		t.Fatalf("at the reset: told %q, sent %+v", told, sent)
	}
	l.Share("origin") // expired: dropped here and there
	if got := gittest.Out(t, bare, "for-each-ref", "refs/bh/limits/"); got != "" {
		t.Fatalf("the expired hold is still on the remote: %s", got)
	}
	if got, _ := l.Repo.Ref(l.Ref); got != "" {
		t.Fatal("the expired hold is still here")
	}
}

// Another machine's hold, fetched, holds this one back without a try.
func TestAnotherMachinesHoldIsRead(t *testing.T) {
	a, _, bare := limitsIn(t, true)
	a.Hit(*HoldOf(&agent.Limit{Status: agent.LimitRejected, ResetsAt: t0.Add(time.Hour), Window: "seven_day_opus"}, "w1", t0))
	b, _, _ := limitsIn(t, true)
	gittest.Out(t, b.Store.Root, "remote", "set-url", "origin", bare)
	if w := b.Wait(0); w != 0 {
		t.Fatalf("held before the fetch: %s", w)
	}
	b.Fetch()
	if w := b.Wait(0); w != time.Hour {
		t.Fatalf("waits %s after the fetch, want 1h", w)
	}
	if h := Held(b.Repo, b.Ref, t0, true); h == nil || h.By != "w1" || Window(h.Window) != "seven-day opus usage limit" {
		t.Fatalf("the hold read: %+v", h)
	}
}

// Without autoResume a hold outlives its reset until Resume, which ends
// it here and on the remote.
func TestWithoutAutoResumeTheHoldWaitsForResume(t *testing.T) {
	l, now, bare := limitsIn(t, false)
	l.Said(rejected(t0.Add(time.Hour)))
	*now = t0.Add(2 * time.Hour)
	if w := l.Wait(7 * time.Second); w != 7*time.Second {
		t.Fatalf("past the reset: waits %s, want the recheck", w)
	}
	h := Held(l.Repo, l.Ref, *now, false)
	if h == nil || !strings.Contains(h.Says(*now), "bh worker --resume") {
		t.Fatalf("the hold past its reset: %+v", h)
	}
	l.Share("origin") // still live: kept
	if got := gittest.Out(t, bare, "for-each-ref", "refs/bh/limits/"); got == "" {
		t.Fatal("a hold waiting for resume was dropped")
	}
	if err := Resume(l.Store); err != nil {
		t.Fatal(err)
	}
	if w := l.Wait(7 * time.Second); w != 0 {
		t.Fatalf("after resume: waits %s", w)
	}
	if got := gittest.Out(t, bare, "for-each-ref", "refs/bh/limits/"); got != "" {
		t.Fatalf("resume left the remote's hold: %s", got)
	}
}

// A hold shared without autoResume ends everywhere with one Resume, on
// another machine than the one that met the limit: that one does not
// push it back.
func TestResumeElsewhereEndsTheSharedHold(t *testing.T) {
	a, now, bare := limitsIn(t, false)
	a.Said(rejected(t0.Add(time.Hour)))
	b, _, _ := limitsIn(t, false)
	gittest.Out(t, b.Store.Root, "remote", "set-url", "origin", bare)
	b.Fetch()
	*now = t0.Add(2 * time.Hour)
	if err := Resume(b.Store); err != nil {
		t.Fatal(err)
	}
	a.Fetch()
	if w := a.Wait(7 * time.Second); w != 0 {
		t.Fatalf("the machine that met the limit still waits %s after a resume elsewhere", w)
	}
	a.Share("origin")
	if got := gittest.Out(t, bare, "for-each-ref", "refs/bh/limits/"); got != "" {
		t.Fatalf("the hold came back to the remote: %s", got)
	}
}

// While the limit warns, runs go one at a time, until allowed or the
// window's reset.
func TestWarningMakesRunsGoOneAtATime(t *testing.T) {
	l, now, _ := limitsIn(t, true)
	l.Said(agent.Limit{Status: agent.LimitWarning, ResetsAt: t0.Add(time.Hour)})
	if !l.Single() {
		t.Fatal("not one at a time under a warning")
	}
	l.Said(agent.Limit{Status: agent.LimitAllowed})
	if l.Single() {
		t.Fatal("still one at a time once allowed")
	}
	l.Said(agent.Limit{Status: agent.LimitWarning, ResetsAt: t0.Add(time.Hour)})
	*now = t0.Add(time.Hour)
	if l.Single() {
		t.Fatal("still one at a time after the window's reset")
	}
	if w := l.Wait(0); w != 0 {
		t.Fatalf("a warning held runs back %s", w)
	}
}

// The words bh status, the board and the web use, and the ref's name.
func TestHoldWords(t *testing.T) {
	h := Hold{ResetsAt: t0.Add(5 * time.Hour), Window: "five_hour"}
	if got, want := h.Says(t0), "paused by the five-hour usage limit until "+t0.Add(5*time.Hour).Local().Format("15:04"); got != want {
		t.Errorf("Says: %q, want %q", got, want)
	}
	if got := h.Event(); got != "five-hour usage limit; resets 2026-11-28T15:00:00Z" {
		t.Errorf("Event: %q", got)
	}
	if got := HoldRef("command:my agent", "abc"); got != "refs/bh/limits/command-my-agent/abc" {
		t.Errorf("HoldRef: %q", got)
	}
	if Window("") != "usage limit" {
		t.Errorf("no window: %q", Window(""))
	}
}

// What holds the queue back, for the board and the web: the worker's
// recorded pause (the day's budget) when no usage limit holds it, until
// a resume removes it.
func TestHoldsBackSaysTheRecordedPause(t *testing.T) {
	l, now, _ := limitsIn(t, true)
	if says := HoldsBack(l.Store, *now); says != "" {
		t.Fatalf("nothing holds it back, yet: %q", says)
	}
	Record(l.Store, PauseDay, &Pause{Until: now.Add(3 * time.Hour), Reason: "the day's budget: $12.00 of $10.00 spent"})
	if says := HoldsBack(l.Store, *now); !strings.HasPrefix(says, "paused until ") ||
		!strings.HasSuffix(says, ": the day's budget: $12.00 of $10.00 spent") {
		t.Fatalf("says %q", says)
	}
	if err := Resume(l.Store); err != nil || HoldsBack(l.Store, *now) != "" {
		t.Fatalf("after a resume (%v): %q", err, HoldsBack(l.Store, *now))
	}
}

// A backoff's end is not the day's budget's: each pause has its own
// record, and only a resume ends both.
func TestPausesOfEachKindEndApart(t *testing.T) {
	l, now, _ := limitsIn(t, true)
	day := &Pause{Until: now.Add(3 * time.Hour), Reason: "the day's budget"}
	Record(l.Store, PauseDay, day)
	l.Backoff(time.Minute, time.Hour, "overloaded")
	if p := PausedNow(l.Store, *now); p == nil || !p.Until.Equal(day.Until) {
		t.Fatalf("paused %+v, want the day's, the longer", p)
	}
	l.Back()
	if p := PausedNow(l.Store, *now, PauseDay); p == nil {
		t.Fatal("the backoff's end ended the day's pause")
	}
	if err := Resume(l.Store); err != nil {
		t.Fatal(err)
	}
	if p := PausedNow(l.Store, *now); p != nil {
		t.Fatalf("paused after a resume: %+v", p)
	}
}
