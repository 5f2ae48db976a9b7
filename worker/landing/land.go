// Package landing commits a finished task's work and delivers it: its
// checks, catching up with the target, landing on it (merge, rebase,
// branch) or a pull request and its shepherding. What stops a landing
// comes back as a *Trouble for the worker's ending table to decide on.
package landing

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/usertree"
)

// ContinueRebase finishes a rebase a landing left in wt (the agent
// resolved its conflict) and returns the branch's new base on target;
// "" when none was in progress.
func ContinueRebase(wt *git.Worktree, target string) (string, error) {
	if rebasing, err := wt.Rebasing(); err != nil || !rebasing {
		return "", err
	}
	if err := wt.ContinueRebase(); err != nil {
		return "", TroubleOf(err)
	}
	return wt.Base(target) // the rebase moved the branch
}

// Commit commits the work in wt since base as one commit on its branch
// and returns the paths it changed, from the commit's tree against the
// base (objects only); with trouble, the paths of the work. Work that still holds a conflict's markers (its
// rebase gone with a worktree restored elsewhere) is never committed:
// this costs a scan of the tree, the price of never landing markers.
// hooks, if set, runs the user's commit hooks on the staged work first,
// until ctx ends: one that refuses is a failed check (Trouble
// ChecksFailed, hooks.Events).
func Commit(ctx context.Context, wt *git.Worktree, base, msg string, hooks *Hooks) ([]string, error) {
	work, err := wt.Work(base)
	if err != nil {
		return nil, err
	}
	defer work.Close()
	if hooks != nil && !hooks.Off {
		if hooks.List = wt.CommitHooks(); len(hooks.List) > 0 {
			work.Verify = func(msgFile string) (string, error) { return hooks.verify(ctx, msgFile) }
		}
	}
	if left := wt.Unresolved(work.Paths); len(left) > 0 {
		return work.Paths, &Trouble{Kind: Conflict, Paths: left, Err: &git.RebaseConflict{Paths: left}}
	}
	var locked *git.LockedError
	var stopped *hookStopped
	var unsigned *git.SignError
	commit, err := wt.CommitWork(work, msg)
	switch {
	case errors.As(err, &locked):
		return nil, fmt.Errorf("commit: %w", err) // contention, not a refusal: the ending waits
	case errors.As(err, &stopped): // bh stopping, or a human taking the task back, as in a check
		return nil, fmt.Errorf("commit: %w", stopped.err)
	case errors.Is(err, errHookRefused): // the repository's rule: the agent fixes it, as a check
		return work.Paths, &Trouble{Kind: ChecksFailed, Checks: hooks.Events, Err: err}
	case errors.As(err, &unsigned): // the user's key, not the agent's error: it waits
		return work.Paths, &Trouble{Kind: SignFailed, Reason: unsigned.Said, Err: err}
	case errors.Is(err, git.ErrNothingToCommit):
		return work.Paths, nil
	case err != nil: // the task fails with its work kept, as any error of the run's
		return work.Paths, &Trouble{Kind: CommitFailed, Err: fmt.Errorf("commit failed: %w", err)}
	}
	return wt.CommittedPaths(work, commit)
}

// CatchUp rebases wt's branch onto target's tip if the target moved past
// base, and returns the new base; "" when it did not move. With no
// commit of its own, the branch just fast-forwards.
func CatchUp(repo *git.Repo, wt *git.Worktree, target, base string) (string, error) {
	tip, err := repo.BranchTip(target)
	if err != nil || tip == base {
		return "", err
	}
	if err := wt.Rebase(tip); err != nil {
		return "", TroubleOf(err)
	}
	return tip, nil
}

// Land moves target (or, keep, the branch from head) to final, the
// commit of the work with the task file's new bytes.
func Land(repo *git.Repo, keep bool, branch, target, head, final, file string) error {
	if keep {
		return TroubleOf(repo.SetBranch(branch, final, head))
	}
	return TroubleOf(usertree.Of(repo).Land(target, final, file))
}

// CommitMessage is a landed task's commit message. Its last line, the
// "bh-task: <id>" trailer, is what git log --grep finds: a title is one line,
// and a summary line that looks like the trailer is quoted, so that neither
// can forge it. Title and summary go through task.SafeText: git log shows
// them on the user's terminal as they are.
func CommitMessage(id, title, summary string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n\n", id, strings.Join(strings.Fields(task.SafeText(title)), " "))
	if s := strings.TrimSpace(task.SafeText(summary)); s != "" {
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

// LockFile, in .git/bh/locks, is the one lock there of no task.
const LockFile = "land.lock"

// Lock is the file lock of everything that moves the target branch:
// landings, bh land, bh sync.
func Lock(s *store.Store) (func(), error) {
	if err := os.MkdirAll(s.Local("locks"), 0o755); err != nil {
		return nil, fmt.Errorf("landing lock: %w", err)
	}
	l, err := store.LockFile(s.Local("locks", LockFile))
	if err != nil {
		return nil, fmt.Errorf("landing lock: %w", err)
	}
	return func() { l.Unlock() }, nil
}

// ConflictPrompt tells an agent resumed on a landing conflict what to
// do: in a worktree mid-rebase, or one whose files alone hold the
// conflict (restored from its snapshot, the rebase's state gone). ""
// when nothing is left to resolve.
func ConflictPrompt(wt *git.Worktree, base, target string, rebasing bool) string {
	var paths []string
	where := "A rebase is in progress in your worktree."
	if rebasing {
		paths, _ = wt.Conflicts()
	} else if changed, err := wt.Changed(base); err == nil {
		paths, where = wt.Unresolved(changed), "Your worktree holds it as conflict markers."
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
`, target, strings.Join(paths, ", "), where)
}

// Kind is what stopped a landing.
type Kind int

const (
	Conflict     Kind = iota + 1 // the work does not rebase onto the target: Paths
	Refused                      // git would not land over the user's changes: Reason, Paths, Dir
	CommitFailed                 // the commit failed otherwise: Err
	ChecksFailed                 // a check failed on the tree that would land: Checks, the last failed
	TakenBack                    // a human took the task back while its checks ran
	SignFailed                   // git could not sign a commit as the user's config asks: Reason (git's words)
)

// Trouble is a landing that stopped short, and why: the task's ending
// decides what becomes of it.
type Trouble struct {
	Kind        Kind
	Paths       []string
	Reason, Dir string
	Checks      []task.Event
	Err         error // never nil
}

func (t *Trouble) Error() string { return t.Err.Error() } // git's words, or the check's

func (t *Trouble) Unwrap() error { return t.Err }

// TroubleOf is err as trouble when git said why it would not land: a
// rebase conflict, a refusal to overwrite the user's changes, or a
// commit it could not sign.
func TroubleOf(err error) error {
	var rc *git.RebaseConflict
	var lr *usertree.LandRefused
	var se *git.SignError
	switch {
	case errors.As(err, &rc):
		return &Trouble{Kind: Conflict, Paths: rc.Paths, Err: err}
	case errors.As(err, &lr):
		return &Trouble{Kind: Refused, Reason: lr.Reason, Paths: lr.Paths, Dir: lr.Dir, Err: err}
	case errors.As(err, &se):
		return &Trouble{Kind: SignFailed, Reason: se.Said, Err: err}
	}
	return err
}
