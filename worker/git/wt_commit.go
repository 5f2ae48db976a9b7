package git

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ErrNothingToCommit means nothing in the worktree differs from the base:
// there is no work to commit.
var ErrNothingToCommit = errors.New("nothing to commit")

// commit is CommitWork of base, taking the index k staged when it can
// (k may be nil).
func (w *Worktree) commit(base, message string, k *Work) (string, error) {
	if op, err := w.wt.InProgressOp(); err != nil || op != "" {
		return "", cmp.Or(err, fmt.Errorf("a %s is in progress in the worktree", op))
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
	adopted, err := w.stageSquash(tip, base, d, bhMoved, k)
	if err != nil {
		return "", err
	}
	if err := w.stagedWork(base, adopted, k); err != nil {
		return "", errors.Join(err, w.cleanBh(d.bh))
	}
	if err := w.gitCommit(message, k != nil && k.NoVerify); err != nil {
		return "", err
	}
	if err := w.cleanBh(d.bh || bhMoved); err != nil {
		return "", err
	}
	return w.wt.Head()
}

// gitCommit commits the index with message; the agent's commit hooks
// run unless noVerify.
func (w *Worktree) gitCommit(message string, noVerify bool) error {
	args := []string{"-c", "maintenance.auto=false", "commit", "-q", "--cleanup=whitespace", "-F", "-"}
	if noVerify {
		args = append(args, "--no-verify")
	}
	if _, err := w.wt.Write([]byte(message), args...); err != nil {
		if se := w.repo.signFailure(err); se != err {
			return se
		}
		return w.hookRefusal(err)
	}
	return nil
}

// stageSquash moves the branch back to base (the index and files keep the
// agent's commits) and stages all the work, .bh/ as base has it: by
// adopting k's index, which staged it already (adopted), or by git add.
// A crash after it leaves the branch at base and the work in the files:
// a rerun starts over from there.
func (w *Worktree) stageSquash(tip, base string, d wtDirt, bhMoved bool, k *Work) (adopted bool, err error) {
	if tip != base {
		if _, err := w.wt.Write(nil, "reset", "-q", "--soft", base); err != nil {
			return false, err
		}
	}
	// A soft reset leaves the index alone: k's copy of it, staged, is
	// what git add would make of it now.
	if d.work && k != nil && k.base == base {
		adopted = w.adopt(k)
	}
	if d.work && !adopted {
		env := Env("GIT_LITERAL_PATHSPECS=0")
		if _, err := w.addAll(env); err != nil {
			return false, err
		}
	}
	if bhMoved || d.bhStaged {
		if _, err := w.wt.Write(nil, "reset", "-q", base, "--", ".bh"); err != nil {
			return false, err
		}
	}
	return adopted, nil
}

// stagedWork is ErrNothingToCommit when the index holds nothing but base
// (the work undid itself), checked before the commit hooks run for nothing.
// An adopted index, its .bh/ then base's, is the tree k's paths came from.
func (w *Worktree) stagedWork(base string, adopted bool, k *Work) error {
	if adopted {
		if len(k.Paths) == 0 {
			return ErrNothingToCommit
		}
		return nil
	}
	_, err := w.wt.Read(nil, "diff", "--cached", "--quiet", base, "--")
	if err == nil {
		return ErrNothingToCommit
	}
	if IsExit(err, 1) {
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
		if _, err := w.wt.Write(nil, "checkout", "-q", "HEAD", "--", ".bh"); err != nil {
			return err
		}
	}
	_, err = w.wt.Write(nil, "clean", "-fdq", "--", ".bh")
	return err
}

// commitHooks are the hooks git commit runs that may refuse it, in the
// order it runs them.
var commitHooks = []string{"pre-commit", "prepare-commit-msg", "commit-msg"}

// HookRefused is a commit a hook of the repository refused: not the
// agent's error, not a failure of the task, but the repository's rule.
type HookRefused struct {
	Hooks  []string // the commit hooks installed, one of which refused
	Output string   // what git and the hook printed
}

func (e *HookRefused) Error() string {
	return fmt.Sprintf("the repository's %s hook refused the commit: %s", strings.Join(e.Hooks, " or "), e.Output)
}

// hookRefusal is a failed git commit's err as a *HookRefused when the
// worktree has a commit hook installed that could have refused it; err
// as it was otherwise.
func (w *Worktree) hookRefusal(err error) error {
	ge, ok := errors.AsType[*gitError](err)
	if _, locked := errors.AsType[*LockedError](err); !ok || locked {
		return err
	}
	out, perr := w.wt.Read(nil, "rev-parse", "--git-path", "hooks")
	if perr != nil {
		return err
	}
	dir := strings.TrimSpace(string(out))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(w.Path, dir)
	}
	var hooks []string
	for _, h := range commitHooks {
		if fi, err := os.Stat(filepath.Join(dir, h)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			hooks = append(hooks, h)
		}
	}
	if len(hooks) == 0 {
		return err
	}
	output := strings.TrimSpace(strings.TrimSpace(ge.Stderr) + "\n" + strings.TrimSpace(ge.Stdout))
	return &HookRefused{Hooks: hooks, Output: cmp.Or(output, fmt.Sprintf("(it printed nothing; git exited %d)", ge.Code))}
}
