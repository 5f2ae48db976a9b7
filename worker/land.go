package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git/usertree"
	"github.com/bh-tracker/bh/worker/journal"
	"github.com/bh-tracker/bh/worker/landing"
)

// landTries bounds how often a landing chases a target that keeps moving.
const landTries = 3

// land commits the work in r's worktree as one commit on its branch and
// lands it on the target: rebased onto the target's tip when it moved,
// then fast-forwarded, git refusing whatever would overwrite the user's
// changes. The task file, closed, goes into the same commit and is written
// to the store only once the commit has landed. Landings are serialized.
// What stops it (landing.Trouble) becomes the next ending.
func (w *worker) land(r *run, e ending.Ending) (next *ending.Ending, err error) {
	unlock, err := w.lockLanding()
	if err != nil {
		return nil, err
	}
	defer unlock()
	_, mode := config.Delivery(r.t, w.s.Config)
	if e.Outcome == ending.Kept {
		mode = task.LandBranch
	}
	if done, err := w.landedBefore(r, e); done || err != nil {
		return nil, err
	}
	if r.wt == nil {
		return nil, fmt.Errorf("%s: its worktree %s is gone and nothing was landed; reopen the task to run it again",
			r.t.ID, r.j.Worktree)
	}
	msg := landing.CommitMessage(r.t.ID, r.t.Title, cmp.Or(e.Summary, e.Result.Summary, r.t.Summary))
	if next, err := w.landCommit(r, &e, msg); next != nil || err != nil {
		return next, err
	}
	checks := w.s.Config.ChecksFor(r.t)
	if e.Unchecked {
		checks = nil
	}
	if mode == task.LandPR { // nothing lands here: the branch goes to its pull request
		return w.landPR(r, e, checks)
	}
	return w.landOn(r, e, mode, msg, checks)
}

// landCommit continues a rebase left in progress, holds back submodule
// changes and commits the work. next or err: the landing stops here.
func (w *worker) landCommit(r *run, e *ending.Ending, msg string) (next *ending.Ending, err error) {
	base, err := landing.ContinueRebase(r.wt, r.j.Target)
	if err != nil {
		return w.landFailed(r, *e, err)
	}
	if base != "" {
		r.j.Base = base
	}
	if next, err := w.submoduleTrouble(r, *e); next != nil || err != nil {
		return next, err
	}
	h := &landing.Hooks{Checker: w.checker(r), Off: e.Unchecked, ID: r.t.ID, Target: r.j.Target, Round: ending.NextRound(r.t)}
	evs, err := w.leased(r, func(ctx context.Context) (_ []task.Event, err error) {
		e.Paths, err = landing.Commit(ctx, r.wt, r.j.Base, msg, h)
		return h.Events, err
	})
	if e.Checks = append(e.Checks, evs...); err != nil {
		var tr *landing.Trouble
		if !errors.As(err, &tr) {
			return nil, fmt.Errorf("%s: %w", r.t.ID, err)
		}
		return w.landTrouble(r, *e, err)
	}
	return nil, nil
}

// leased runs checks (or hooks) renewing r's lease; their ctx ends as bh
// stops or a human takes the task back: a *landing.Trouble TakenBack then.
func (w *worker) leased(r *run, checks func(ctx context.Context) ([]task.Event, error)) ([]task.Event, error) {
	ctx, cancel := context.WithCancelCause(w.stopping())
	defer cancel(nil)
	stopBeat := w.heartbeat(r.t.ID, func() { cancel(errNotOurs) })
	evs, err := checks(ctx)
	stopBeat()
	if errors.Is(err, errNotOurs) && w.stopping().Err() == nil {
		return evs, &landing.Trouble{Kind: landing.TakenBack, Err: err}
	}
	return evs, err
}

// landPR catches the branch up with the remote's base, checks it and
// opens its pull request.
func (w *worker) landPR(r *run, e ending.Ending, checks []string) (next *ending.Ending, err error) {
	if err := w.rebased(r)(landing.CatchUpRemote(w.repo, r.wt, landing.Remote(w.s), r.j.Target, r.j.Base)); err != nil {
		return w.landFailed(r, e, err) // a conflict goes back to the agent
	}
	if len(checks) > 0 { // what the pull request gets has passed them
		if _, err := w.checkTip(r, &e, checks, ending.NextRound(r.t), ""); err != nil {
			return w.landFailed(r, e, err)
		}
	}
	gh := landing.GH{Bin: w.opt.GH, Dir: w.s.Root}
	// A stopped gh is asked again on the next start: an open pull request is found.
	head, url, err := gh.OpenPR(w.stopping(), w.repo, landing.Remote(w.s), r.j.Branch, r.j.Target, r.t,
		landing.PRBody(r.t, cmp.Or(e.Summary, e.Result.Summary, r.t.Summary, r.t.Title),
			cmp.Or(e.Details, e.Result.Details), e.Checks))
	if err == nil {
		e.Commit, e.PR = head, url
		err = journal.Save(w.s, r.j)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: pull request: %w", r.t.ID, err) // still in progress: recovery tries again
	}
	return w.close(r, &e, nil)
}

// landOn lands the work on the target (or keeps it on its branch),
// catching up with a target that moved meanwhile.
func (w *worker) landOn(r *run, e ending.Ending, mode, msg string, checks []string) (*ending.Ending, error) {
	round, checked := ending.NextRound(r.t), ""
	for try := 1; ; try++ {
		if mode == task.LandMerge {
			if err := w.rebased(r)(landing.CatchUp(w.repo, r.wt, r.j.Target, r.j.Base)); err != nil {
				return w.landFailed(r, e, err)
			}
		}
		if len(checks) > 0 {
			// Checked on exactly the tree that lands (or, land: branch,
			// that is kept): again whenever the target moved and the
			// branch was rebased since.
			var err error
			if checked, err = w.checkTip(r, &e, checks, round, checked); err != nil {
				return w.landFailed(r, e, err)
			}
		}
		next, err := w.close(r, &e, func(data []byte) error { return w.landFile(r, &e, mode, msg, data) })
		if next != nil {
			return next, nil
		}
		if errors.Is(err, usertree.ErrTargetMoved) && try < landTries {
			continue
		}
		return w.landFailed(r, e, err)
	}
}

// rebased journals the base a catch-up moved r's branch onto ("": it
// did not move).
func (w *worker) rebased(r *run) func(string, error) error {
	return func(base string, err error) error {
		if err != nil || base == "" {
			return err
		}
		r.j.Base = base
		return journal.Save(w.s, r.j)
	}
}

// checkTip runs the checks on the branch's tip unless they passed on it
// already, and returns the tip they passed on; a *landing.Trouble when
// one failed, or when a human took the task back meanwhile (see leased).
func (w *worker) checkTip(r *run, e *ending.Ending, checks []string, round int, checked string) (string, error) {
	tip, err := w.repo.BranchTip(r.j.Branch)
	if err != nil || tip == checked {
		return tip, err
	}
	evs, err := w.leased(r, func(ctx context.Context) ([]task.Event, error) {
		return w.checker(r).Check(ctx, r.t.ID, r.j.Target, checks, round, w.started(r))
	})
	if err != nil {
		return "", err
	}
	e.Checks = append(e.Checks, evs...)
	if evs[len(evs)-1].ExitCode != 0 {
		return "", &landing.Trouble{Kind: landing.ChecksFailed, Checks: e.Checks, Err: errors.New("a check failed")}
	}
	return tip, nil
}

// landFile builds the final commit (the branch's work plus the task file's
// new bytes), journals it, and lands it: the last step before the task
// file is written.
func (w *worker) landFile(r *run, e *ending.Ending, mode, msg string, data []byte) error {
	head, err := w.repo.BranchTip(r.j.Branch)
	if err != nil {
		return err
	}
	var final string
	if head == r.j.Base {
		final, err = w.repo.CommitFile(head, w.s.RelPath(r.t.ID), data, msg) // no change but the task's
	} else {
		final, err = w.repo.WithFile(head, w.s.RelPath(r.t.ID), data)
	}
	if err != nil {
		return landing.TroubleOf(err) // a commit git could not sign waits
	}
	r.j.Final = final
	if err := journal.Save(w.s, r.j); err != nil {
		return err
	}
	e.Commit = final
	return landing.Land(w.repo, mode == task.LandBranch, r.j.Branch, r.j.Target, head, final, w.s.RelPath(r.t.ID))
}

// landedBefore finishes a landing that a crash cut short after its
// commit landed: the task file takes the bytes the commit holds.
func (w *worker) landedBefore(r *run, e ending.Ending) (bool, error) {
	if r.j.Final == "" {
		return false, nil
	}
	ok, err := w.repo.Landed(r.j.Target, r.j.Final)
	if err != nil || !ok {
		return false, err
	}
	data, err := w.repo.FileAt(r.j.Final, w.s.RelPath(r.t.ID))
	if err != nil {
		return true, err
	}
	if err := w.s.PutFile(r.t.ID, data); err != nil {
		return true, err
	}
	t, err := w.s.Get(r.t.ID) // the closed task, as it landed
	if err != nil {
		return true, err
	}
	e.Commit = r.j.Final
	w.settled(r, e, t)
	return true, nil
}

// landFailed is landTrouble, anything else than trouble returned as the
// landing's error.
func (w *worker) landFailed(r *run, e ending.Ending, err error) (*ending.Ending, error) {
	var tr *landing.Trouble
	if err != nil && !errors.As(err, &tr) {
		return nil, fmt.Errorf("%s: land: %w", r.t.ID, err)
	}
	return w.landTrouble(r, e, err)
}

// landTrouble turns what stopped a landing into its ending: a rebase
// conflict or failed checks (a commit hook's refusal among them) go back
// to the agent, a refusal to overwrite the user's changes or a key that
// cannot sign asks the human, a commit that failed otherwise fails the
// task: the next ending. Anything else is returned.
func (w *worker) landTrouble(r *run, e ending.Ending, err error) (*ending.Ending, error) {
	var tr *landing.Trouble
	if !errors.As(err, &tr) {
		return nil, err
	}
	f := ending.Facts{Prior: e, ID: r.t.ID, Target: r.j.Target, Paths: tr.Paths, Policy: w.policy(r.t)}
	switch tr.Kind {
	case landing.Conflict:
		f.What, f.Worktree, f.Round, f.Rounds = ending.LandConflict, r.j.Worktree, ending.ConflictRound(r.t), w.s.Config.Rounds()
	case landing.Refused:
		f.What, f.Reason, f.Dir, f.Question = ending.LandRefused, tr.Reason, tr.Dir, ending.LandQuestion(r.t.ID, r.j.Target, r.j.Branch)
		f.Asked = ending.Decision(r.t, ending.IsLandQuestion)
	case landing.CommitFailed: // as any error of the run's
		f = ending.Facts{What: ending.AgentFailed, Session: r.session, Cause: reason(tr.Err)}
	case landing.ChecksFailed:
		f.What, f.Checks, f.Rounds, f.Branch, f.Session = ending.CheckFailure, tr.Checks, w.s.Config.Rounds(), r.j.Branch, r.session
	case landing.TakenBack:
		f = ending.Facts{What: ending.RunLost, Session: r.session}
	case landing.SignFailed:
		f.What, f.Cause, f.Question = ending.SignFailure, tr.Reason, ending.SignQuestion(r.t.ID, r.j.Target, r.j.Branch)
		f.Asked = ending.Decision(r.t, ending.IsLandQuestion)
	}
	next := ending.Decide(f)
	return &next, nil
}

// submoduleTrouble holds back work that changed files inside submodules
// (git.Worktree.SubmoduleChanges): the task waits with the landing
// question, its worktree (the changes in it) kept, instead of landing
// without them in silence. Once a human answered that question, the rest
// lands (or is kept) without them. next: the ending instead of landing.
func (w *worker) submoduleTrouble(r *run, e ending.Ending) (next *ending.Ending, err error) {
	subs, err := r.wt.SubmoduleChanges(r.j.Base)
	if err != nil || len(subs) == 0 {
		return nil, err
	}
	f := ending.Facts{What: ending.LandRefused, Prior: e, ID: r.t.ID, Target: r.j.Target, Reason: ending.SubNote, Paths: subs,
		Dir: r.wt.Path, Question: ending.SubQuestion(r.t.ID, r.j.Branch, r.wt.Path, subs), Policy: w.policy(r.t)}
	held := ending.Decide(f)
	if q := ending.Decision(r.t, ending.IsLandQuestion); q != nil && q.Context == held.Context {
		return nil, r.wt.KeepSubmodulesAt(r.j.Base, subs) // answered: the rest goes as it is
	}
	return &held, nil
}

// lastNote is the note of the task's last state change before its claim.
func lastNote(t *task.Task) string {
	for i := len(t.History) - 1; i >= 0; i-- {
		if h := t.History[i]; h.Kind == task.EventState && h.To != task.InProgress {
			return h.Text
		}
	}
	return ""
}
