package usertree

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/worker/git"
)

// CommitStore commits what changed under dir (bh's store, .bh), or only
// under paths when given (pathspecs under dir: bh init's own files), on the
// branch checked out in the main tree, and nothing else: the user's other
// changes, staged or not, stay as they are. false when nothing changed.
// Hooks are skipped: this is bh's bookkeeping, not the user's work. The
// tree's index.lock is held throughout (see landHeld): a git commit of the
// user's at that instant never sweeps bh's files into its own commit.
func (r *Tree) CommitStore(dir, message string, paths ...string) (bool, error) {
	if len(paths) == 0 {
		paths = []string{dir}
	}
	changed, err := r.StoreChanges(paths...)
	if err != nil || len(changed) == 0 {
		return false, err
	}
	branch, err := r.CurrentBranch()
	if err != nil {
		return false, err
	}
	tip, err := r.BranchTip(branch) // "": the branch's first commit
	if err != nil || branch == "" {
		return false, cmp.Or(err, fmt.Errorf("commit %s: no branch checked out", dir))
	}
	rel, err := filepath.Rel(r.Root, dir)
	if err != nil {
		return false, err
	}
	// taskPath is the store: an undo leaves its files, bh's, alone.
	h := &heldLanding{dir: r.Root, gitDir: r.GitDir(), target: branch, tip: tip, taskPath: filepath.ToSlash(rel)}
	if err := r.hold(h); err != nil {
		return false, err
	}
	committed, err := r.commitStore(h, paths, message)
	if err != nil {
		return false, errors.Join(fmt.Errorf("commit %s: %w", dir, err), r.undoHeld(h))
	}
	return committed, r.commitHeld(h)
}

// commitStore stages dir as the working tree has it in the held index,
// and commits tip's tree with dir so, moving the branch there; false when
// that tree is tip's (the index alone was behind).
func (r *Tree) commitStore(h *heldLanding, paths []string, message string) (bool, error) {
	add := append([]string{"add", "-A", "--"}, paths...)
	if _, err := r.Run(r.Root, h.env(), nil, add...); err != nil {
		return false, err
	}
	treeEnv := git.Env("GIT_INDEX_FILE="+h.treeIndex(), "LC_ALL=C")
	defer os.Remove(h.treeIndex())
	from, parents, old := []string{"read-tree", "--empty"}, []string{}, strings.Repeat("0", 40) // must not exist yet
	if h.tip != "" {
		from, parents, old = []string{"read-tree", h.tip}, []string{h.tip}, h.tip
	}
	_, err := r.Run(r.Root, treeEnv, nil, from...)
	if err == nil {
		_, err = r.Run(r.Root, treeEnv, nil, add...)
	}
	var tree, tipTree []byte
	if err == nil {
		tree, err = r.Run(r.Root, treeEnv, nil, "write-tree")
	}
	if err == nil && h.tip != "" {
		tipTree, err = r.Read(nil, "rev-parse", h.tip+"^{tree}")
	}
	if err != nil || string(tree) == string(tipTree) {
		return false, err
	}
	if h.commit, err = r.CommitTree(nil, strings.TrimSpace(string(tree)), message, parents...); err != nil {
		return false, err
	}
	if err := r.writeNote(h); err != nil {
		return false, err
	}
	_, err = r.Write(nil, "update-ref", "-m", "commit: "+strings.SplitN(message, "\n", 2)[0], "refs/heads/"+h.target, h.commit, old)
	return err == nil, err
}
