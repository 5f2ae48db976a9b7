package git

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// RebaseConflict is a rebase stopped on conflicts, left in progress in the
// worktree (markers in the files) for the agent or a human to resolve.
type RebaseConflict struct {
	Onto  string
	Paths []string
}

func (e *RebaseConflict) Error() string {
	if len(e.Paths) == 0 {
		return fmt.Sprintf("rebase onto %s: stopped, not yet continued", Short(e.Onto))
	}
	return fmt.Sprintf("rebase onto %s: conflicts in %s", Short(e.Onto), strings.Join(e.Paths, ", "))
}

// rebaseGit runs a rebase command in the worktree: never an editor (the
// commits keep their messages), no automatic gc, no other branch moved.
func (w *Worktree) rebaseGit(args ...string) error {
	pre := []string{"-c", "maintenance.auto=false", "-c", "rebase.autoSquash=false", "-c", "rebase.updateRefs=false", "-c", logRefs}
	_, err := w.wt.Run(w.Path, Env("GIT_EDITOR=true", "LC_ALL=C"), nil, append(pre, args...)...)
	return err
}

// Rebase replays the branch's own commits (those since its base, see
// Base) onto onto, which becomes its base. Only those: commits of the
// target's that a sync rewrote since the branch was made are not the
// task's, and are never replayed. A conflict leaves the rebase in progress
// and gives a *RebaseConflict; so does a rebase already in progress, which
// is not started again. A branch already on onto is left alone.
func (w *Worktree) Rebase(onto string) error {
	if err := w.stoppedRebase(); err != nil {
		return err
	}
	args := []string{"rebase", "-q", onto}
	if base := w.forkPoint(); base != "" {
		args = []string{"rebase", "-q", "--onto", onto, base}
	}
	if err := writeRecord(w.records, recOnto, onto); err != nil {
		return fmt.Errorf("rebase %s onto %s: %w", w.Branch, Short(onto), err)
	}
	err := w.rebaseGit(args...)
	if err == nil {
		return w.SetBase(onto)
	}
	if cerr := w.stoppedRebase(); cerr != nil {
		return cerr
	}
	return fmt.Errorf("rebase %s onto %s: %w", w.Branch, Short(onto), err)
}

// Rebasing reports whether a rebase is in progress in the worktree.
func (w *Worktree) Rebasing() (bool, error) {
	op, err := w.wt.InProgressOp()
	if err != nil {
		return false, fmt.Errorf("worktree %s: %w", w.Branch, err)
	}
	return op == "rebase", nil
}

// ContinueRebase stages every change in the worktree (.bh/ left out) and
// continues the rebase. Conflicts left (files still holding markers, or
// a further commit that conflicts) give a *RebaseConflict with the rebase
// still in progress. Nothing in progress: nothing to do.
func (w *Worktree) ContinueRebase() error {
	if rebasing, err := w.Rebasing(); err != nil || !rebasing {
		return err
	}
	paths, err := w.Conflicts()
	if err != nil {
		return fmt.Errorf("continue rebase of %s: %w", w.Branch, err)
	}
	if left := w.Unresolved(paths); len(left) > 0 {
		return &RebaseConflict{Onto: w.rebaseOnto(), Paths: left}
	}
	env := Env("GIT_LITERAL_PATHSPECS=0")
	if _, err := w.addAll(env); err != nil {
		return fmt.Errorf("continue rebase of %s: %w", w.Branch, err)
	}
	if err := w.ownRebase(); err != nil {
		return err
	}
	onto := w.rebaseOnto()
	err = w.rebaseGit("rebase", "--continue")
	if err == nil && onto != "" {
		return w.SetBase(onto)
	}
	if err == nil {
		return nil
	}
	if cerr := w.stoppedRebase(); cerr != nil {
		return cerr
	}
	return fmt.Errorf("continue rebase of %s: %w", w.Branch, err)
}

// stoppedRebase is the *RebaseConflict of a rebase in progress, nil when
// there is none.
func (w *Worktree) stoppedRebase() error {
	rebasing, err := w.Rebasing()
	if err != nil || !rebasing {
		return err
	}
	paths, err := w.Conflicts()
	if err != nil {
		return fmt.Errorf("worktree %s: %w", w.Branch, err)
	}
	return &RebaseConflict{Onto: w.rebaseOnto(), Paths: paths}
}

// RebaseHead is the commit a rebase in progress has reached (its onto,
// and the commits replayed so far), which the worktree's files then stand
// on; "" when no rebase is in progress.
func (w *Worktree) RebaseHead() (string, error) {
	if rebasing, err := w.Rebasing(); err != nil || !rebasing {
		return "", err
	}
	return w.wt.Head()
}

// rebaseOnto is the commit the rebase in progress replays onto.
func (w *Worktree) rebaseOnto() string {
	return cmp.Or(readTrimmed(filepath.Join(w.wt.gitDir, "rebase-merge"), "onto"),
		readTrimmed(filepath.Join(w.wt.gitDir, "rebase-apply"), "onto"))
}

// ontoFile names the commit a rebase bh started replays the branch onto,
// from before it starts until its new base is recorded: a kill between
// git's end and bh's record would otherwise leave the old base standing
// (see Base).
func (w *Worktree) ontoFile() string { return filepath.Join(w.records, recOnto) }

// rebasedOnto is the base of a worktree whose rebase finished on the
// branch without bh recording it: the rebase's onto, recorded now. ""
// when no rebase is pending, or it is still in progress (the branch's
// commits are on base until it ends), or it ended without moving the
// branch there (its record then goes).
func (w *Worktree) rebasedOnto(base string) string {
	onto := readTrimmed(w.records, recOnto)
	if !plumbing.IsHash(onto) || onto == base {
		return ""
	}
	if rebasing, err := w.Rebasing(); err != nil || rebasing {
		return ""
	}
	if _, err := w.repo.Read(nil, "merge-base", "--is-ancestor", onto, "refs/heads/"+w.Branch); err != nil {
		if IsExit(err, 1) {
			_ = os.Remove(w.ontoFile())
		}
		return ""
	}
	_ = w.SetBase(onto) // best effort: until it is written, this finds it again
	return onto
}

// ownRebase refuses to continue a rebase whose state an agent could have
// written (the worktree's admin dir is writable in its sandbox) to make
// git, outside the sandbox, do more than replay commits: bh's rebases
// only pick, so a todo list with anything else (exec runs a command line,
// update-ref moves another branch, merge and label rewrite history) or a
// merge strategy git would look up as a program is not bh's.
func (w *Worktree) ownRebase() error {
	dir := filepath.Join(w.wt.gitDir, "rebase-merge")
	if data, err := os.ReadFile(filepath.Join(dir, "strategy")); err == nil {
		if s := strings.TrimSpace(string(data)); s != "ort" && s != "recursive" {
			return fmt.Errorf("the rebase in progress in %s is not bh's: merge strategy %q", w.Path, s)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "git-rebase-todo"))
	if os.IsNotExist(err) {
		return nil // none left to do, or the apply backend's (patches, no commands)
	}
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		cmd, _, _ := strings.Cut(line, " ")
		switch cmd {
		case "", "pick", "p", "drop", "d", "noop":
		default:
			if !strings.HasPrefix(line, "#") {
				return fmt.Errorf("the rebase in progress in %s is not bh's: its todo list says %q", w.Path, line)
			}
		}
	}
	return nil
}
