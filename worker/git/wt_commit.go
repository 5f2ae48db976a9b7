package git

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ErrNothingToCommit means nothing in the worktree differs from the base:
// there is no work to commit.
var ErrNothingToCommit = errors.New("nothing to commit")

// Commit squashes everything since base (the agent's own commits and its
// uncommitted work, .bh/ left out) into one commit on the branch whose
// parent is base, through `git commit` in the worktree so that the
// repository's commit hooks run. Afterwards the worktree is clean but for
// ignored files. A branch tip that already is that commit is returned as
// it is; ErrNothingToCommit when nothing differs from base.
func (w *Worktree) Commit(base, message string) (string, error) {
	c, err := w.commit(base, message)
	if err != nil {
		return "", fmt.Errorf("commit %s: %w", w.Branch, err)
	}
	return c, nil
}

func (w *Worktree) commit(base, message string) (string, error) {
	if op, err := w.wt.InProgressOp(); err != nil || op != "" {
		return "", errors.Join(err, inProgress(op))
	}
	tip, err := w.wt.Head()
	if err != nil {
		return "", err
	}
	bhMoved := w.repo.bhDiffers(tip, base)
	// Only a tip that may be this very commit needs the whole tree's
	// status; otherwise .bh/'s is enough, and `git add` finds the work.
	squash := !bhMoved && tip != base && w.isSquash(tip, base, message)
	d, err := w.dirt(squash)
	if err != nil {
		return "", err
	}
	if squash && !d.work {
		return tip, w.cleanBh(d.bh) // done before: a rerun changes nothing
	}
	if err := w.stageSquash(tip, base, d, bhMoved); err != nil {
		return "", err
	}
	if err := w.stagedWork(base); err != nil {
		return "", errors.Join(err, w.cleanBh(d.bh))
	}
	if _, err := w.wt.git([]byte(message), "-c", "maintenance.auto=false",
		"commit", "-q", "--cleanup=whitespace", "-F", "-"); err != nil {
		return "", err
	}
	if err := w.cleanBh(d.bh || bhMoved); err != nil {
		return "", err
	}
	return w.wt.Head()
}

// stageSquash moves the branch back to base (the index and files keep the
// agent's commits) and stages all the work, .bh/ as base has it. A crash
// after it leaves the branch at base and the work in the files: a rerun
// starts over from there.
func (w *Worktree) stageSquash(tip, base string, d wtDirt, bhMoved bool) error {
	if tip != base {
		if _, err := w.wt.git(nil, "reset", "-q", "--soft", base); err != nil {
			return err
		}
	}
	if d.work {
		env := gitEnv("GIT_LITERAL_PATHSPECS=0")
		if _, err := w.repo.runGit(w.Path, env, nil, "add", "-A", "--", ".", ":(exclude).bh"); err != nil {
			return err
		}
	}
	if bhMoved || d.bhStaged {
		if _, err := w.wt.git(nil, "reset", "-q", base, "--", ".bh"); err != nil {
			return err
		}
	}
	return nil
}

// stagedWork is ErrNothingToCommit when the index holds nothing but base
// (the work undid itself), checked before the commit hooks run for nothing.
func (w *Worktree) stagedWork(base string) error {
	_, err := w.wt.read(nil, "diff", "--cached", "--quiet", base, "--")
	if err == nil {
		return ErrNothingToCommit
	}
	if isExit(err, 1) {
		return nil
	}
	return err
}

// isSquash reports whether tip is a squash Commit made before: base's
// only child, with message's subject (a commit-msg hook may add to it).
func (w *Worktree) isSquash(tip, base, message string) bool {
	c, err := object.GetCommit(w.repo.storage(), plumbing.NewHash(tip))
	if err != nil || len(c.ParentHashes) != 1 || c.ParentHashes[0].String() != base {
		return false
	}
	subject, _, _ := strings.Cut(strings.TrimSpace(message), "\n")
	subject = strings.TrimSpace(subject)
	return subject != "" && strings.Contains(c.Message, subject)
}

// bhDiffers reports whether a's .bh/ differs from b's (an agent that
// committed to .bh/ itself); unreadable commits count as differing.
func (r *Repo) bhDiffers(a, b string) bool {
	if a == b {
		return false
	}
	ta, err1 := r.commitTree(a)
	tb, err2 := r.commitTree(b)
	ea, oka := bhEntry(ta)
	eb, okb := bhEntry(tb)
	return err1 != nil || err2 != nil || oka != okb || ea != eb
}

// cleanBh puts .bh/ in the worktree back as HEAD has it, when dirty: bh
// never commits it from there, and a dirty tree would stop a rebase.
func (w *Worktree) cleanBh(dirty bool) error {
	if !dirty {
		return nil
	}
	head, err := w.wt.headTree()
	if err != nil {
		return err
	}
	if _, ok := bhEntry(head); ok {
		if _, err := w.wt.git(nil, "checkout", "-q", "HEAD", "--", ".bh"); err != nil {
			return err
		}
	}
	_, err = w.wt.git(nil, "clean", "-fdq", "--", ".bh")
	return err
}

func inProgress(op string) error {
	if op == "" {
		return nil
	}
	return fmt.Errorf("a %s is in progress in the worktree", op)
}
