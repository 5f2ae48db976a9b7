package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/usertree"
)

// landTries bounds how often a landing chases a target that keeps moving.
const landTries = 3

// land commits the work in r's worktree as one commit on its branch and
// lands it on the target: rebased onto the target's tip when it moved,
// then fast-forwarded, git refusing whatever would overwrite the user's
// changes. The task file, closed, goes into the same commit and is written
// to the store only once the commit has landed. Landings are serialized.
func (w *worker) land(r *run, e ending.Ending) error {
	unlock, err := w.lockLanding()
	if err != nil {
		return err
	}
	defer unlock()
	_, mode := config.Delivery(r.t, w.s.Config)
	if e.Outcome == ending.Kept {
		mode = task.LandBranch
	}
	if mode == task.LandBranch && e.Outcome != ending.Kept { // a journal of an older bh, decided without it
		e = ending.KeepOnBranch(e, r.j.Branch, r.t.ID)
	}
	if done, err := w.landedBefore(r, e); done || err != nil {
		return err
	}
	if r.wt == nil {
		return fmt.Errorf("%s: its worktree %s is gone and nothing was landed; reopen the task to run it again",
			r.t.ID, r.j.Worktree)
	}
	if rebasing, err := r.wt.Rebasing(); err != nil {
		return err
	} else if rebasing {
		if err := r.wt.ContinueRebase(); err != nil {
			return w.landTrouble(r, e, err)
		}
		if r.j.Base, err = r.wt.Base(r.j.Target); err != nil { // the rebase moved the branch
			return fmt.Errorf("%s: %w", r.t.ID, err)
		}
	}
	if done, err := w.submoduleTrouble(r, e); done || err != nil {
		return err
	}
	// Work that still holds a conflict's markers (its rebase gone with a
	// worktree restored elsewhere) is never committed: this costs a scan
	// of the tree, the price of never landing markers.
	work, err := r.wt.Work(r.j.Base)
	if err != nil {
		return fmt.Errorf("%s: %w", r.t.ID, err)
	}
	defer work.Close()
	e.Paths, work.NoVerify = work.Paths, e.NoVerify
	if left := r.wt.Unresolved(work.Paths); len(left) > 0 {
		return w.landTrouble(r, e, &git.RebaseConflict{Paths: left})
	}
	msg := commitMessage(r.t.ID, r.t.Title, firstOf(e.Summary, e.Result.Summary, r.t.Summary))
	var locked *git.LockedError
	var hooked *git.HookRefused
	// The paths landed come from the commit's tree against the base,
	// objects only.
	if commit, err := r.wt.CommitWork(work, msg); errors.As(err, &locked) {
		return fmt.Errorf("%s: commit: %w", r.t.ID, err) // contention, not a refusal: the ending waits
	} else if errors.As(err, &hooked) { // the repository's rule, not the agent's error: a human decides
		return w.end(r, ending.Decide(hookFacts(r, e, hooked, w.policy(r.t))))
	} else if err != nil && !errors.Is(err, git.ErrNothingToCommit) {
		// A commit hook said no: the task fails with its work kept, as any error of the run's.
		return w.end(r, ending.Decide(ending.Facts{What: ending.AgentFailed, Session: r.session,
			Cause: reason(fmt.Errorf("commit failed: %w", err))}))
	} else if err == nil {
		if e.Paths, err = r.wt.CommittedPaths(work, commit); err != nil {
			return fmt.Errorf("%s: %w", r.t.ID, err)
		}
	}
	checks, round, checked := w.s.Config.ChecksFor(r.t), checkRound(r.t), ""
	if mode == task.LandPR { // nothing lands here: the branch goes to its pull request
		if err := w.catchUpRemote(r); err != nil {
			return w.landTrouble(r, e, err) // a conflict goes back to the agent
		}
		if len(checks) > 0 && !e.Unchecked { // what the pull request gets has passed them
			if checked, err = w.checkTip(r, &e, checks, round, checked); err != nil || checked == "" {
				return err
			}
		}
		if err := w.openPR(r, &e); err != nil {
			return fmt.Errorf("%s: pull request: %w", r.t.ID, err) // still in progress: recovery tries again
		}
		return w.close(r, &e, nil)
	}
	for try := 1; ; try++ {
		if mode == task.LandMerge {
			if err := w.catchUp(r); err != nil {
				return w.landTrouble(r, e, err)
			}
		}
		if len(checks) > 0 && !e.Unchecked {
			// Checked on exactly the tree that lands (or, land: branch,
			// that is kept): again whenever the target moved and the
			// branch was rebased since.
			if checked, err = w.checkTip(r, &e, checks, round, checked); err != nil || checked == "" {
				return err
			}
		}
		err := w.close(r, &e, func(data []byte) error { return w.landFile(r, &e, mode, msg, data) })
		if errors.Is(err, usertree.ErrTargetMoved) && try < landTries {
			continue
		}
		return w.landTrouble(r, e, err)
	}
}

// checkTip runs the checks on the branch's tip unless they passed on it
// already, and returns the tip they passed on; "" when one failed, the
// task then ended by checksFailed, or when a human took the task back
// meanwhile (bh stop ends the check as it ends an agent), the task then
// ended by runLost. The lease is renewed while they run.
func (w *worker) checkTip(r *run, e *ending.Ending, checks []string, round int, checked string) (string, error) {
	tip, err := w.repo.BranchTip(r.j.Branch)
	if err != nil || tip == checked {
		return tip, err
	}
	ctx, cancel := context.WithCancelCause(w.stopping())
	defer cancel(nil)
	stopBeat := w.heartbeat(r.t.ID, func() { cancel(errNotOurs) })
	evs, err := w.check(ctx, r, checks, round, w.started(r))
	stopBeat()
	if errors.Is(err, errNotOurs) && w.stopping().Err() == nil {
		return "", w.end(r, ending.Decide(ending.Facts{What: ending.RunLost, Session: r.session}))
	}
	if err != nil {
		return "", err
	}
	e.Checks = append(e.Checks, evs...)
	if evs[len(evs)-1].ExitCode == 0 {
		return tip, nil
	}
	return "", w.end(r, ending.Decide(ending.Facts{What: ending.CheckFailure, Prior: *e, Checks: e.Checks, Rounds: w.s.Config.Rounds(),
		ID: r.t.ID, Target: r.j.Target, Branch: r.j.Branch, Session: r.session, Policy: w.policy(r.t)}))
}

// catchUp rebases the branch onto the target's tip if the target moved.
func (w *worker) catchUp(r *run) error {
	tip, err := w.repo.BranchTip(r.j.Target)
	if err != nil || tip == r.j.Base {
		return err
	}
	// With no commit of its own, the branch just fast-forwards.
	if err := r.wt.Rebase(tip); err != nil {
		return err
	}
	r.j.Base = tip
	return saveJournal(w.s, r.j)
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
		return err
	}
	r.j.Final = final
	if err := saveJournal(w.s, r.j); err != nil {
		return err
	}
	e.Commit = final
	if mode == task.LandBranch {
		return w.repo.SetBranch(r.j.Branch, final, head)
	}
	return usertree.Of(w.repo).Land(r.j.Target, final, w.s.RelPath(r.t.ID))
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

// landTrouble turns what stopped a landing into its ending: a rebase
// conflict goes back to the agent, a refusal to overwrite the user's
// changes asks the human; anything else is returned.
func (w *worker) landTrouble(r *run, e ending.Ending, err error) error {
	var rc *git.RebaseConflict
	var lr *usertree.LandRefused
	switch {
	case err == nil:
		return nil
	case errors.As(err, &rc):
		return w.end(r, ending.Decide(ending.Facts{What: ending.LandConflict, Prior: e, ID: r.t.ID, Target: r.j.Target,
			Worktree: r.j.Worktree, Paths: rc.Paths, Round: ending.ConflictRound(r.t), Rounds: w.s.Config.Rounds(),
			Policy: w.policy(r.t)}))
	case errors.As(err, &lr):
		return w.end(r, ending.Decide(ending.Facts{What: ending.LandRefused, Prior: e, ID: r.t.ID, Target: r.j.Target,
			Reason: lr.Reason, Paths: lr.Paths, Dir: lr.Dir, Question: landQuestion(r),
			Asked: decision(r.t, isLandQuestion), Policy: w.policy(r.t)}))
	}
	return fmt.Errorf("%s: land: %w", r.t.ID, err)
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

// commitMessage is a landed task's commit message. Its last line, the
// "bh-task: <id>" trailer, is what git log --grep finds: a title is one line,
// and a summary line that looks like the trailer is quoted, so that neither
// can forge it.
func commitMessage(id, title, summary string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n\n", id, strings.Join(strings.Fields(title), " "))
	if s := strings.TrimSpace(summary); s != "" {
		for _, line := range strings.Split(s, "\n") {
			if strings.HasPrefix(strings.ToLower(strings.TrimSpace(line)), "bh-task:") {
				line = "> " + line
			}
			b.WriteString(line + "\n")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "bh-task: %s\n", id)
	return b.String()
}
