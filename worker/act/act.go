// Package act is the one door for what a human does to a task: answer
// its questions, stop it, reopen it, land its work now, and resume the
// queue a usage limit paused. bh's faces (the CLI's verbs, the board, the
// web inbox and its phone links) call it and do none of it themselves;
// each action says what it settled and what happens next, so that every
// face tells the human the same. Landing now (Land) decides here and has
// the worker's landing, handed in (worker.NewLanding), land the work.
package act

import (
	"context"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/attempts"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/notify"
	"github.com/bh-tracker/bh/worker/outage"
	"github.com/bh-tracker/bh/worker/slots"
)

// answerWait bounds how long recording an answer waits for its
// input.received to be delivered: bh respond exits right after, and a slow
// webhook must not hold up the human.
const answerWait = 5 * time.Second

// Answer records a human's answers to task id, in the repository s opens,
// and tells the notifiers that listen to input.received who answered what,
// so that the record and the notification are one step. The answer is
// recorded by store.Store.Answer; a notification that cannot go out is
// logged through logf and never undoes it. Next says what follows.
func Answer(s *store.Store, id string, ans []task.Answer, by string, logf func(format string, args ...any)) (*task.Task, error) {
	if err := CheckComments(s, id, ans); err != nil {
		return nil, err
	}
	t, n, err := s.Answer(id, ans, by)
	if err != nil {
		return nil, err
	}
	if logf == nil {
		logf = func(string, ...any) {}
	}
	nf, err := notify.New(s.Config.Notify, logf)
	if err != nil {
		logf("notify: %v", err)
		return t, nil
	}
	if !nf.Wants(task.EventInputReceived) {
		return t, nil
	}
	web, err := config.LoadWebConfig()
	if err != nil {
		logf("notify: %v", err) // the notification goes without its link
	}
	nf.Send(notify.Received(t, n, by, s.Root, web))
	ctx, cancel := context.WithTimeout(context.Background(), answerWait)
	defer cancel()
	if err := nf.Close(ctx); err != nil {
		logf("%v", err)
	}
	return t, nil
}

// Next says what a worker does with t, answered and open again: the
// ending its answer settles, else resuming the agent with the answer.
func Next(t *task.Task) string {
	if next := attempts.Next(t); next != "" {
		return next
	}
	return ending.NextStep(t, slots.Branch(t.ID))
}

// Stop stops task id for reason (task.Task.Stop): it is deferred, and a
// worker running it stops the agent and parks its work (running says so).
func Stop(s *store.Store, id, reason string, at time.Time, by string) (t *task.Task, running bool, err error) {
	t, err = s.Update(id, func(t *task.Task) error {
		running = t.State == task.InProgress
		return t.Stop(reason, at, by)
	})
	return t, running, err
}

// Move moves task id to state to (reopen: task.Open; defer, close), by
// the human by.
func Move(s *store.Store, id string, to task.State, at time.Time, by string) (*task.Task, error) {
	return s.Update(id, func(t *task.Task) error { return t.SetState(to, at, by, "") })
}

// Resume ends the usage limit's (or the day's budget's) pause of the
// repository's queue: the worker starts runs again.
func Resume(s *store.Store) error { return outage.Resume(s) }

// Unlanded is the work t holds that has not landed, in words ("" when
// none): finished work a human settled, waiting for the worker, or work
// parked under refs/bh/parked/<id>.
func Unlanded(s *store.Store, t *task.Task) (string, error) {
	if t.State == task.Open {
		if w := ending.Settled(t); w != "" {
			return w, nil
		}
	}
	r, err := git.Open(s.Root)
	if err != nil {
		return "", err
	}
	commit, err := r.Ref(git.ParkRef(t.ID))
	if err != nil || commit == "" {
		return "", err
	}
	return fmt.Sprintf("parked work (%s)", commit[:min(10, len(commit))]), nil
}
