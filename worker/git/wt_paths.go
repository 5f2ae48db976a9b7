package git

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// moveAside clears path for a new worktree: an empty directory goes,
// anything else is renamed to path.orphan-<unix time>, never deleted.
func moveAside(path string) error {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if os.Remove(path) == nil { // only succeeds when empty
		return nil
	}
	aside := fmt.Sprintf("%s.orphan-%d", path, time.Now().Unix())
	if err := os.Rename(path, aside); err != nil {
		return fmt.Errorf("move %s aside: %w", path, err)
	}
	return nil
}

// canonPath is path made absolute with its symbolic links resolved, as git
// records worktree paths; the part that does not exist yet is kept as is.
func canonPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err == nil {
		return real, nil
	}
	parent := filepath.Dir(abs)
	if parent == abs {
		return abs, nil
	}
	dir, err := canonPath(parent)
	return filepath.Join(dir, filepath.Base(abs)), err
}

// readGitFile is the private git dir a linked worktree's .git file names.
func readGitFile(path string) (string, error) {
	data, err := os.ReadFile(filepath.Join(path, ".git"))
	if err != nil {
		return "", err
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
	if !ok {
		return "", fmt.Errorf("%s/.git is not a worktree's .git file", path)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(path, dir)
	}
	return filepath.Clean(dir), nil
}

// hasGitFile reports whether the worktree at path has its .git, in any
// form: one an agent made a link or a folder is rewritten before use
// (see ownTree), not taken for a vanished worktree.
func hasGitFile(path string) bool {
	_, err := os.Lstat(filepath.Join(path, ".git"))
	return err == nil
}

// writeMarker writes content+"\n" to file atomically, unless it holds it.
func writeMarker(file, content string) error {
	want := content + "\n"
	if old, err := os.ReadFile(file); err == nil && string(old) == want {
		return nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	tmp := fmt.Sprintf("%s.tmp-%d", file, os.Getpid())
	if err := os.WriteFile(tmp, []byte(want), 0o666); err != nil {
		return err
	}
	if err := os.Rename(tmp, file); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

// TreeGitDir is the git dir of the working tree at dir, found without a
// git process: .git is that dir itself (a main tree) or a file naming it
// (a linked worktree, or a main tree made with --separate-git-dir).
// Anything else is left to git to say.
func (r *Repo) TreeGitDir(dir string) (string, error) {
	fi, err := os.Lstat(filepath.Join(dir, ".git"))
	switch {
	case err == nil && fi.IsDir():
		return filepath.Join(dir, ".git"), nil
	case err == nil && fi.Mode().IsRegular():
		if gitDir, err := readGitFile(dir); err == nil {
			return gitDir, nil
		}
	}
	out, err := r.Run(dir, Env("LC_ALL=C"), nil, "rev-parse", "--absolute-git-dir")
	return strings.TrimSpace(string(out)), err
}

// freshSlot leaves in a pool slot's admin dir only what a fresh slot
// has: HEAD, the index (and a split index's shared file), git's commondir
// and gitdir, the HEAD's reflog, and the files named in keep. What
// an earlier task left goes: its per-worktree refs (refs/worktree/*,
// refs/bisect/*) and their logs, a config.worktree, hooks, info/ (a
// sparse checkout), the state of an operation, pseudo refs (ORIG_HEAD,
// FETCH_HEAD, AUTO_MERGE), bh's temporary indexes, whatever else an agent
// wrote there (bh's records are not here: see RecordsDir), and the locks
// of gits no longer running.
func freshSlot(path, admin string, keep ...string) error {
	running := gitIn([]string{path})
	entries, err := os.ReadDir(admin)
	if err != nil {
		return err
	}
	for _, e := range entries {
		n := e.Name()
		switch {
		case slices.Contains(keep, n) || slices.Contains([]string{"HEAD", "index", "commondir", "gitdir"}, n) ||
			strings.HasPrefix(n, "sharedindex."):
			continue
		case strings.HasSuffix(n, ".lock") && running:
			continue // a git's at work there (the user's own): its lock is its
		case n == "logs" && e.IsDir():
			if err := clearDir(filepath.Join(admin, n), "HEAD"); err != nil {
				return err
			}
			continue
		}
		if err := os.RemoveAll(filepath.Join(admin, n)); err != nil {
			return err
		}
	}
	return nil
}
