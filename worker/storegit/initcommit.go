package storegit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/usertree"
)

// initFiles are the files bh init makes under .bh, which it commits.
var initFiles = []string{".gitignore", ".gitattributes", "config.yaml", "tasks/.gitkeep"}

// NotCommittedError says why bh init left its files uncommitted, and how
// to commit them.
type NotCommittedError struct {
	Why, Command string
}

func (e *NotCommittedError) Error() string {
	return ".bh/ is not committed: " + e.Why + "; until it is, git clean or git stash -u removes it"
}

func (e *NotCommittedError) Hint() string { return "commit it with: " + e.Command }

// CommitInit commits bh init's own files on the checked-out branch (with
// plumbing, bh's paths only: see usertree.CommitStore), so that the
// user's git keeps them from then on. It commits nothing, and says what to
// run, while the user's index holds staged changes of their own, in the
// middle of a merge or rebase, or on a detached HEAD.
func CommitInit(s *store.Store) (bool, error) {
	r, err := git.Open(s.Root)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(r.Root, s.Dir)
	if err != nil {
		return false, err
	}
	rel = filepath.ToSlash(rel)
	why, err := notNow(r, rel)
	if err != nil {
		return false, err
	}
	if why != "" {
		return false, &NotCommittedError{Why: why, Command: fmt.Sprintf("git add %s && git commit -m 'bh: track tasks' -- %s", rel, rel)}
	}
	var paths []string // those git does not know yet: an edit of the user's is theirs to commit
	for _, f := range initFiles {
		p := filepath.Join(s.Dir, filepath.FromSlash(f))
		if st, err := r.StoreChanges(p); err == nil && len(st) == 1 && strings.HasPrefix(st[0], "??") {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return false, nil
	}
	done, err := usertree.Of(r).CommitStore(s.Dir, "bh: track tasks in .bh/", paths...)
	if se := (*git.SignError)(nil); errors.As(err, &se) { // never unsigned in its place
		return false, &NotCommittedError{Why: se.Error(), Command: fmt.Sprintf("git add %s && git commit -m 'bh: track tasks' -- %s", rel, rel)}
	}
	return done, err
}

// notNow says why bh init must not commit the store at rel now; "" when
// it may.
func notNow(r *git.Repo, rel string) (string, error) {
	if op, err := r.InProgressOp(); err != nil || op != "" {
		return "a " + op + " is in progress", err
	}
	if branch, err := r.CurrentBranch(); err != nil || branch == "" {
		return "HEAD is detached", err
	}
	if staged, err := r.StagedOutside(rel); err != nil || staged {
		return "your index has staged changes, which bh leaves for your own commit", err
	}
	if !r.HasIdentity() {
		return "git does not know who you are (git config user.name and user.email)", nil
	}
	return "", nil
}

// OnABranch reports whether git holds bh's copy of config.yaml of the
// repository at dir on a branch (KeptConfig's tree lost it): a checkout
// of a branch made before bh init, where .bh/ is not gone but was never.
func OnABranch(dir string) bool {
	k, err := git.OpenKeep(dir)
	if err != nil {
		return false
	}
	blob, err := k.Lookup("config.yaml")
	return err == nil && blob != "" && k.Safe("config.yaml", blob)
}

// KeptConfig is bh's copy of the config of the repository at dir when
// the tree lost its .bh/config.yaml: bh init puts it back rather than a
// default. nil otherwise.
func KeptConfig(dir string) []byte {
	r, err := git.Open(dir)
	if err != nil {
		return nil
	}
	if _, err := os.Lstat(filepath.Join(r.Root, ".bh", "config.yaml")); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	k, err := git.OpenKeep(r.Root)
	if err != nil {
		return nil
	}
	blob, err := k.Lookup("config.yaml")
	if err != nil || blob == "" {
		return nil
	}
	data, _ := k.Read(blob)
	return data
}
