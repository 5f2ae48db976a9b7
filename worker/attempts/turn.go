package attempts

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
)

// Turn is the turn of a task tried side by side, claimed by a worker,
// instead of a run: what it needs of that worker.
type Turn struct {
	S     *store.Store
	Repo  *git.Repo
	By    string // the worker's name
	Now   func() time.Time
	Owns  func(*task.Task) bool                       // the task is still the worker's
	Limit func(*task.Task) float64                    // what the task may spend in all (budget.Limit)
	Until func(t *task.Task, at time.Time) *time.Time // when a question asked at at expires
	// Target is the branch the task lands on; Land lands a task's work
	// kept on its branch (bh land), a *ending.NotLandedError when it did not.
	Target func(*task.Task) (string, error)
	Land   func(*task.Task) error
	// PR opens the pull request of a task whose work, picked's, is on its
	// branch (land: pr) as a single run's is opened: caught up with the
	// remote, checked, pushed; it returns the branch's tip and the pull
	// request's URL, a *ending.NotLandedError when a check failed. Its
	// review rounds resume picked's session, which it hands to the task.
	PR func(t, picked *task.Task) (head, url string, err error)
	// Release gives the task back, open, after trouble, and returns it;
	// Settled tells of the task as the turn left it: its claim goes,
	// notify is sent, out is reported (none when "").
	Release func(id string, cause error) error
	Settled func(t *task.Task, notify string, out ending.Outcome, note string)
	Warnf   func(format string, args ...any)
}

// Take takes t's turn: makes its attempts, asks the human to pick one
// once they all ended, or acts on the pick. done is false for a task that
// is not tried side by side.
func (tu Turn) Take(t *task.Task) (done bool, err error) {
	if !t.Tried() || t.PullRequest() != "" { // its pick's pull request: reviewed as a single run's
		return false, nil
	}
	as, err := Of(tu.S, t)
	if err != nil {
		return true, tu.Release(t.ID, err)
	}
	if len(as) < t.Attempts {
		return true, Fan(tu.S, t, tu.Limit(t), tu.Now(), tu.By)
	}
	switch k, feedback, q := Picked(t); {
	case q != nil && k == 0:
		return true, tu.retryAll(t, as, feedback)
	case q != nil:
		return true, tu.pick(t, as, k, q)
	}
	if p := Pending(as); len(p) > 0 { // claimed by hand before its attempts ended
		return true, tu.Release(t.ID, fmt.Errorf("its attempts %s have not ended", strings.Join(p, ", ")))
	}
	return true, tu.ask(t, as)
}

// ask asks the human which of t's attempts lands, all of them side by side.
func (tu Turn) ask(t *task.Task, as []*task.Task) error {
	target, err := tu.Target(t)
	if err != nil {
		return tu.Release(t.ID, err)
	}
	rows, err := Compare(tu.Repo, t.ID, as, target)
	if err != nil {
		return tu.Release(t.ID, err)
	}
	if p, _ := config.Policy(t, tu.S.Config); !p.Allowed { // human: false: the worker picks
		return tu.pick(t, as, Best(rows), nil)
	}
	q, context := Ask(rows)
	return tu.settle(t, task.AwaitingInput, func(t *task.Task, at time.Time) {
		ending.Ask(t, at, []task.Question{q}, context, tu.Until(t, at))
	}, fmt.Sprintf("its %d attempts ended: the human picks one", len(as)), task.EventInputRequested, ending.NeedsInput)
}

// pick lands attempt k of t as a single run of t would: with land: merge
// as bh land lands a kept branch; with land: branch its work goes on t's
// own branch, for bh land t; with land: pr that branch goes to t's pull
// request, t in review. The others leave their branches for refs kept a
// week. Work that does not land (a check failing on the tree that would
// land, the user's changes in the way) asks the pick again, saying why.
// With no human to ask (q nil), a pick that does not land fails t.
func (tu Turn) pick(t *task.Task, as []*task.Task, k int, q *task.Question) error {
	if k < 1 || k > len(as) {
		return tu.unpicked(t, q, k, &ending.NotLandedError{Reason: fmt.Sprintf("there are %d", len(as))})
	}
	picked := as[k-1]
	_, mode := config.Delivery(t, tu.S.Config)
	head, url, err := tu.deliver(t, picked, mode)
	if why := notLanded(err); why != nil {
		return tu.unpicked(t, q, k, why)
	}
	for _, a := range as {
		if err := keep(tu.Repo, t.ID, a); err != nil { // the picked one's branch is gone once it landed
			tu.Warnf("%s: %v", t.ID, err)
		}
	}
	to, done, out := task.Closed, "landed", ending.Completed
	switch mode {
	case task.LandBranch:
		done = "kept on branch " + slots.Branch(t.ID) + " (bh land " + t.ID + ")"
	case task.LandPR:
		to, done, out = task.InReview, "in review: a pull request for "+slots.Branch(t.ID), ending.InReview
	}
	return tu.settle(t, to, func(t *task.Task, at time.Time) {
		t.Summary, t.Details, t.Agent = picked.Summary, picked.Details, picked.Agent
		t.Record(at, task.Event{Kind: task.EventCommit, By: tu.By, Text: fmt.Sprintf("attempt %d (%s) %s", k, picked.ID, done)})
		if url != "" { // reviewed as a single run's: its rounds resume the picked attempt's session
			t.SessionID = picked.SessionID
			t.Record(at, task.Event{Kind: task.EventPR, By: tu.By, Text: url, Commit: head})
		}
	}, fmt.Sprintf("picked attempt %d (%s): %s", k, picked.ID, done), task.EventTaskCompleted, out)
}

// deliver delivers the work of attempt picked of t as mode says: landed
// (merge), on t's branch (branch), or on it and to t's pull request (pr):
// its tip and the pull request's URL then.
func (tu Turn) deliver(t, picked *task.Task, mode string) (head, url string, err error) {
	if mode == task.LandMerge {
		return "", "", land(tu.Land, picked)
	}
	target, err := tu.Target(t)
	if err == nil {
		err = onBranch(tu.Repo, t, picked, target)
	}
	if err != nil || mode != task.LandPR {
		return "", "", err
	}
	return tu.PR(t, picked)
}

// onBranch puts the work of attempt a on t's own branch, where a single
// run of t keeps it: made at the commit the work forks from (git's reflog
// then tells the branch's base, see git.Worktree.Base), then moved to the
// work; a crash in between leaves it to move.
func onBranch(r *git.Repo, t, a *task.Task, target string) error {
	tip, base, err := Work(r, t.ID, a, target)
	if err != nil {
		return err
	}
	branch := slots.Branch(t.ID)
	had, err := r.BranchTip(branch)
	switch {
	case err != nil:
		return err
	case tip == "" && had == "":
		return fmt.Errorf("attempt %d has no branch %s: %w", a.Attempt, slots.Branch(a.ID), ending.ErrNothingToLand)
	case tip == "" || tip == had:
		return nil
	case had == "":
		if err := r.SetBranch(branch, base, ""); err != nil {
			return err
		}
		had = base
	}
	return r.SetBranch(branch, tip, had)
}

// unpicked is a pick of attempt k that did not land, why: git's trouble
// (no reason) gives t back to retry; else pick q is asked again, saying
// why, or with no human to ask (q nil) t fails.
func (tu Turn) unpicked(t *task.Task, q *task.Question, k int, why *ending.NotLandedError) error {
	if why.Reason == "" {
		return tu.Release(t.ID, why.Err)
	}
	note := fmt.Sprintf("attempt %d did not land: %s", k, why.Reason)
	if q == nil {
		return tu.settle(t, task.Failed, func(*task.Task, time.Time) {}, note+" (human: false: the worker picked)",
			task.EventTaskFailed, ending.Failed)
	}
	return tu.settle(t, task.AwaitingInput, func(t *task.Task, at time.Time) { ending.Repend(t, q.ID, tu.Until(t, at)) },
		note, task.EventInputRequested, ending.NeedsInput)
}

// keep moves attempt a of task id off its branch to the ref it is kept
// under (the ref first: a crash between keeps both).
func keep(r *git.Repo, id string, a *task.Task) error {
	tip, err := r.BranchTip(slots.Branch(a.ID))
	if err != nil || tip == "" {
		return err
	}
	if err := r.SetRef(git.AttemptRef(id, a.Attempt), tip, "bh attempt not picked"); err != nil {
		return err
	}
	return r.DropBranch(slots.Branch(a.ID))
}

// retryAll sends the human's feedback to every attempt of t, each resumed
// in its own session; t waits on them again.
func (tu Turn) retryAll(t *task.Task, as []*task.Task, feedback string) error {
	for _, a := range as {
		if err := Retry(tu.S, a, feedback, tu.Now(), tu.By); err != nil {
			return tu.Release(t.ID, err)
		}
	}
	return tu.settle(t, task.Open, func(t *task.Task, at time.Time) {
		t.Record(at, task.Event{Kind: task.EventFeedback, By: tu.By, Text: feedback, Context: "sent to every attempt"})
	}, "none of the attempts was picked: the feedback went to each", "", "")
}

// settle records what t's turn did and moves it to state to, no longer
// the worker's. A human who took it back meanwhile has the last word.
func (tu Turn) settle(t *task.Task, to task.State, change func(*task.Task, time.Time), note, notify string, out ending.Outcome) error {
	errNotOurs := errors.New("not ours")
	got, err := tu.S.Update(t.ID, func(t *task.Task) error {
		if !tu.Owns(t) {
			return errNotOurs
		}
		at := tu.Now()
		change(t, at)
		t.Lease = nil
		return t.SetState(to, at, tu.By, note)
	})
	if errors.Is(err, errNotOurs) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", t.ID, err)
	}
	tu.Settled(got, notify, out, note)
	return nil
}

// notLanded is why the work of a picked attempt did not land: with a
// Reason when the human is to pick again (a check failed on the tree that
// would land, the user's changes in the way, no work to land), without
// one for trouble to retry. nil when it landed.
func notLanded(err error) *ending.NotLandedError {
	nl := &ending.NotLandedError{Err: err}
	switch {
	case err == nil:
		return nil
	case errors.As(err, &nl):
	case errors.Is(err, ending.ErrNothingToLand):
		nl.Reason = err.Error()
	}
	return nl
}

// land lands attempt a's work unless it landed already, before a crash
// that left its task's turn to take again (bh land's record says so).
func land(lands func(*task.Task) error, a *task.Task) error {
	for _, e := range a.History {
		if e.Kind == task.EventCommit && strings.HasPrefix(e.Text, "landed on ") {
			return nil
		}
	}
	return lands(a)
}
