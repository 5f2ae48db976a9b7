package git

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

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
	if message, err = w.verify(message, k); err != nil {
		return "", errors.Join(err, w.cleanBh(d.bh))
	}
	if err := w.gitCommit(message); err != nil {
		return "", err
	}
	if err := w.cleanBh(d.bh || bhMoved); err != nil {
		return "", err
	}
	return w.wt.Head()
}

// gitCommit commits the index with message, no hook running (noHooks;
// the user's ran sandboxed before, see verify); a key that cannot sign
// is a SignError.
func (w *Worktree) gitCommit(message string) error {
	_, err := w.wt.Write([]byte(message), "-c", "maintenance.auto=false", "commit", "-q", "--no-verify",
		"--cleanup=whitespace", "-F", "-")
	if err != nil {
		return w.repo.signFailure(err)
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

// CommitHook is one of the user's hooks that decide on a commit, in the
// user's hooks folder (HooksDir): bh runs it sandboxed, over the index
// that is about to be committed, never through git (noHooks).
type CommitHook struct {
	Name string // pre-commit, prepare-commit-msg or commit-msg
	Path string // the program
	// Args are the hook's arguments after the message file (git's
	// prepare-commit-msg gets the message's source, "message").
	Args []string
	// Bind is the folder a sandbox must let it read: the hooks folder, or
	// for one inside the main tree (hidden from a sandbox) its top folder
	// there, as husky's .husky/_/pre-commit runs .husky/pre-commit.
	Bind string
}

// CommitHooks are the user's commit hooks installed (executable files in
// HooksDir), in the order git commit runs them. The others (post-commit,
// post-checkout, post-merge, pre-push, reference-transaction...) bh never
// runs.
func (r *Repo) CommitHooks() []CommitHook {
	dir := r.HooksDir()
	bind := dir
	if root := r.mainRoot(); root != "" {
		if rel, err := filepath.Rel(root, dir); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			bind = filepath.Join(root, strings.Split(filepath.ToSlash(rel), "/")[0])
		}
	}
	var out []CommitHook
	for _, h := range []CommitHook{{Name: "pre-commit"}, {Name: "prepare-commit-msg", Args: []string{"message"}}, {Name: "commit-msg"}} {
		h.Path, h.Bind = filepath.Join(dir, h.Name), bind
		if fi, err := os.Stat(h.Path); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			out = append(out, h)
		}
	}
	return out
}

// mainRoot is the main tree's root.
func (r *Repo) mainRoot() string {
	if r.main != nil {
		return r.main.Root
	}
	return r.Root
}

// verify has k.Verify decide on the staged work (see Work.Verify) and
// returns the message to commit: Verify's, or message when it gives none.
func (w *Worktree) verify(message string, k *Work) (string, error) {
	if k == nil || k.Verify == nil {
		return message, nil
	}
	file := filepath.Join(w.wt.gitDir, "COMMIT_EDITMSG")
	if err := writeFresh(file, []byte(message)); err != nil {
		return "", err
	}
	got, err := k.Verify(file)
	if err != nil {
		return "", err
	}
	return cmp.Or(got, message), nil
}

// writeFresh writes data to a new file at path, whatever was there (a
// link an agent planted is removed, never followed).
func writeFresh(path string, data []byte) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return errors.Join(err, f.Close())
}

// CommitHooks are the user's commit hooks (Repo.CommitHooks).
func (w *Worktree) CommitHooks() []CommitHook { return w.repo.CommitHooks() }
