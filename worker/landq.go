package worker

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
)

func isLandQuestion(q *task.Question) bool {
	return q.Header == ending.LandTitle && q.Kind() == task.ChoiceQuestion
}

// landQuestion asks what to do with finished work that git would not land
// over the user's uncommitted changes.
func landQuestion(r *run) task.Question {
	return task.Question{Header: ending.LandTitle, Type: task.ChoiceQuestion, Default: ending.LandKeep,
		Question: fmt.Sprintf("%s is done, but landing it on %s would overwrite your uncommitted changes. "+
			"Commit or stash them and answer %q, or answer %q to leave the work on branch %s (bh land %s later).",
			r.t.ID, r.j.Target, ending.LandNow, ending.LandKeep, r.j.Branch, r.t.ID),
		Options: []task.Option{
			{Label: ending.LandNow, Description: "land it now: your changes are committed or stashed"},
			{Label: ending.LandKeep, Description: "keep it on branch " + r.j.Branch + " for review"},
		}}
}

// lockLanding serializes landings: between this worker's runs, and with
// bh land run by hand (the file lock).
func (w *worker) lockLanding() (func(), error) {
	w.landMu.Lock()
	unlock, err := landLock(w.s)
	if err != nil {
		w.landMu.Unlock()
		return nil, err
	}
	return func() { unlock(); w.landMu.Unlock() }, nil
}

// landLockFile, in .bh/locks, is the one lock there of no task.
const landLockFile = "land.lock"

// landLock is the file lock of everything that moves the target branch:
// landings, bh land, bh sync.
func landLock(s *store.Store) (func(), error) {
	if err := os.MkdirAll(filepath.Join(s.Dir, "locks"), 0o755); err != nil {
		return nil, fmt.Errorf("landing lock: %w", err)
	}
	l, err := store.LockFile(filepath.Join(s.Dir, "locks", landLockFile))
	if err != nil {
		return nil, fmt.Errorf("landing lock: %w", err)
	}
	return func() { l.Unlock() }, nil
}

// conflictPrompt tells an agent resumed on a landing conflict what to do:
// in a worktree mid-rebase, or one whose files alone hold the conflict
// (restored from its snapshot, the rebase's state gone). "" when nothing
// is left to resolve.
func conflictPrompt(r *run, rebasing bool) string {
	var paths []string
	where := "A rebase is in progress in your worktree."
	if rebasing {
		paths, _ = r.wt.Conflicts()
	} else if changed, err := r.wt.Changed(r.j.Base); err == nil {
		paths, where = r.wt.Unresolved(changed), "Your worktree holds it as conflict markers."
	}
	if len(paths) == 0 {
		return ""
	}
	return fmt.Sprintf(`

## Your finished work conflicts with %[1]s
While bh landed your work, %[1]s had moved on, and rebasing your work onto it
stopped with conflicts in: %[2]s. %[3]s
Resolve each conflict: edit the files so that the conflict markers (<<<<<<<,
=======, >>>>>>>) are gone and both the other change and yours take effect.
Do not run git rebase, commit or reset yourself: bh continues the rebase and
lands the result when you report completed. Ask (needs_input) if the two
changes cannot be reconciled without a decision.
`, r.j.Target, strings.Join(paths, ", "), where)
}
