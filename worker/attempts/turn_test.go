package attempts

import (
	"errors"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

// TestPickThatDoesNotLandIsAskedAgain: a picked attempt whose work does
// not land (a check failing on the tree that would land, nothing left to
// land) asks the pick again, saying why; trouble of git's gives the task
// back to retry; nothing is recorded as landed.
func TestPickThatDoesNotLandIsAskedAgain(t *testing.T) {
	for _, c := range []struct {
		name  string
		err   error
		state task.State
	}{
		{"check failed", &ending.NotLandedError{ID: "x", Reason: "check go test failed"}, task.AwaitingInput},
		{"nothing to land", fmt.Errorf("no branch: %w", ending.ErrNothingToLand), task.AwaitingInput},
		{"git trouble", errors.New("index.lock"), task.Open},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, tk := picked(t, false)
			var released error
			tu := Turn{S: s, By: "w1", Now: time.Now, Owns: func(*task.Task) bool { return true },
				Until: func(*task.Task, time.Time) *time.Time { return nil },
				Land:  func(*task.Task) error { return c.err },
				Release: func(id string, err error) error {
					released = err
					_, uerr := s.Update(id, func(t *task.Task) error { t.Lease = nil; return t.SetState(task.Open, time.Now(), "w1", "") })
					return errors.Join(err, uerr)
				},
				Settled: func(*task.Task, string, ending.Outcome, string) {}, Warnf: t.Logf}
			done, err := tu.Take(tk)
			got, _ := s.Get(tk.ID)
			if !done || got.State != c.state || (released != nil) != (c.state == task.Open) {
				t.Fatalf("done %v, %s is %s, released %v (%v)", done, tk.ID, got.State, released, err)
			}
			for _, e := range got.History {
				if e.Kind == task.EventCommit {
					t.Errorf("recorded as landed: %+v", e)
				}
			}
			if k, _, q := Picked(got); c.state == task.AwaitingInput && (q != nil || len(got.Pending()) != 1) {
				t.Errorf("the pick is still taken as %d, pending %+v", k, got.Pending())
			}
		})
	}
}

// TestPickLandedBeforeACrashCloses: a worker killed after the pick
// landed (bh land recorded it on the attempt) and before its task closed
// closes it when it takes the turn again, landing nothing twice.
func TestPickLandedBeforeACrashCloses(t *testing.T) {
	s, tk := picked(t, true)
	r, err := git.Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	tu := Turn{S: s, Repo: r, By: "w1", Now: time.Now, Owns: func(*task.Task) bool { return true },
		Land:    func(a *task.Task) error { t.Errorf("%s landed again", a.ID); return nil },
		Release: func(_ string, err error) error { t.Errorf("released: %v", err); return err },
		Settled: func(*task.Task, string, ending.Outcome, string) {}, Warnf: t.Logf}
	if _, err := tu.Take(tk); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get(tk.ID); got.State != task.Closed {
		t.Errorf("%s is %s, want closed", tk.ID, got.State)
	}
}

// picked is a task tried by two attempts, both ended, whose pick of
// attempt 1 the worker has claimed to act on; landed: bh land recorded
// attempt 1 landed.
func picked(t *testing.T, landed bool) (*store.Store, *task.Task) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	s, _, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := s.Create(&task.Task{Title: "try", Attempts: 2})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for k := 1; k <= 2; k++ {
		a, err := s.Create(New(tk, k, 0))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Update(a.ID, func(a *task.Task) error {
			if landed && k == 1 {
				a.Record(time.Now(), task.Event{Kind: task.EventCommit, Text: "landed on main"})
			}
			return a.SetState(task.Closed, time.Now(), "w1", "")
		}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.ID)
	}
	q, _ := Ask([]Row{{K: 1}, {K: 2}})
	now := time.Now()
	tk, err = s.Update(tk.ID, func(t *task.Task) error {
		t.DependsOn = ids
		ending.Ask(t, now, []task.Question{q}, "", nil)
		if err := t.SetState(task.InProgress, now, "w1", ""); err != nil {
			return err
		}
		return t.SetState(task.AwaitingInput, now, "w1", "")
	})
	if err != nil {
		t.Fatal(err)
	}
	if tk, _, err = s.Answer(tk.ID, []task.Answer{{Values: []string{"1"}}}, "human"); err != nil {
		t.Fatal(err)
	}
	tk, err = s.Update(tk.ID, func(t *task.Task) error { return t.SetState(task.InProgress, now, "w1", "claimed") })
	if err != nil {
		t.Fatal(err)
	}
	return s, tk
}
