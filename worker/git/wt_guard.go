package git

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A task's worktree is the agent's: it may write every file there, the
// .git file included, and its admin dir (<common dir>/worktrees/<name>).
// bh's own git commands there run outside any sandbox, so none may take a
// git dir, a common dir or a setting that starts a program from what the
// agent wrote: each runs with GIT_DIR, GIT_COMMON_DIR and GIT_WORK_TREE
// that bh derived itself, after the files git would read them from are
// made as git wrote them (ownTree), and with every setting that starts a
// program pinned to the user's own (pins.go).

// Tampered is a worktree of bh's whose git files were not bh's: an agent
// tried to make bh's git run its programs, or to redirect it.
type Tampered struct {
	Path string   // the worktree
	What []string // what was not bh's, in words
}

func (t *Tampered) Error() string {
	return fmt.Sprintf("worktree %s was tampered with: %s", t.Path, strings.Join(t.What, "; "))
}

// adminOf is the admin dir git made for the linked worktree at path
// (canonical), "" when none is registered. The .git file is believed only
// when the admin dir it names, under the common dir, names path back; else
// it is the one admin dir that names path (git's own registry). An agent
// can write its own admin dir only: it can make its slot unknown, never
// pass for another.
func (r *Repo) adminOf(path string) (string, error) {
	root := filepath.Join(r.realCommon(), "worktrees")
	if dir, err := readGitFile(path); err == nil && filepath.Dir(dir) == root && claims(dir, path) {
		return dir, nil
	}
	admins, err := filepath.Glob(filepath.Join(root, "*"))
	if err != nil {
		return "", err
	}
	var found []string
	for _, a := range admins {
		if claims(a, path) {
			found = append(found, a)
		}
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("worktree %s: %d admin dirs name it (%s)", path, len(found), strings.Join(found, ", "))
}

// claims reports whether admin's gitdir file names path's .git.
func claims(admin, path string) bool {
	gitdir := readTrimmed(admin, "gitdir")
	return gitdir != "" && samePath(admin, gitdir, filepath.Join(path, ".git"))
}

// realCommon is the common dir with its symbolic links resolved, as git
// writes it into a worktree's .git file.
func (r *Repo) realCommon() string {
	if real, err := filepath.EvalSymlinks(r.commonDir); err == nil {
		return real
	}
	return r.commonDir
}

// ownFile is one file of a worktree's git plumbing and its content as
// bh (through git) wrote it; "" for a file that must be absent or empty.
type ownFile struct {
	path, want, name string
}

// ownFiles are the files git reads to find a linked worktree's git dirs
// and config, and that an agent could point elsewhere. branch, when
// known, is what HEAD must name if it names a branch: a HEAD moved to
// another (the user's) would have bh commit there.
func (r *Repo) ownFiles(path, admin, branch string) []ownFile {
	files := []ownFile{
		{filepath.Join(path, ".git"), "gitdir: " + admin, "the .git file"},
		{filepath.Join(admin, "gitdir"), filepath.Join(path, ".git"), "the admin dir's gitdir"},
		{filepath.Join(admin, "commondir"), "../..", "the admin dir's commondir"},
		{filepath.Join(admin, "config.worktree"), "", "a config.worktree"},
		{filepath.Join(admin, "hooks"), "", "hooks in the admin dir"},
	}
	if branch != "" {
		files = append(files, ownFile{filepath.Join(admin, "HEAD"), "ref: refs/heads/" + branch, "HEAD"})
	}
	return files
}

// TrustedFiles are the files of the worktree at path (its admin dir
// gitDir) that nothing but bh may write: a sandbox binds them read-only
// (a missing one from an empty file). The store marker is among them:
// bh run in the worktree, by a human too, acts on the store it names.
// bh's other records of the worktree are out of the sandbox's reach
// altogether (see RecordsDir).
func TrustedFiles(path, gitDir string) []string {
	return []string{filepath.Join(path, ".git"), filepath.Join(gitDir, "gitdir"),
		filepath.Join(gitDir, "commondir"), filepath.Join(gitDir, "config.worktree"),
		filepath.Join(gitDir, storeMarker)}
}

// notOwn says which of the worktree's files are not bh's.
func (r *Repo) notOwn(path, admin, branch string) []string {
	var what []string
	for _, f := range r.ownFiles(path, admin, branch) {
		if !r.isOwn(f) {
			what = append(what, f.name+" ("+f.path+") is not bh's")
		}
	}
	return what
}

func (r *Repo) isOwn(f ownFile) bool {
	fi, err := os.Lstat(f.path)
	if f.want == "" {
		return errors.Is(err, fs.ErrNotExist) || err == nil && fi.Mode().IsRegular() && fi.Size() == 0
	}
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	data, err := os.ReadFile(f.path)
	got := strings.TrimSpace(string(data))
	switch {
	case err != nil:
		return false
	case got == f.want:
		return true
	case filepath.Base(f.path) == "HEAD": // detached (a rebase, a released slot) is fine
		return !strings.HasPrefix(got, "ref: ")
	case filepath.Base(f.path) == "commondir":
		return samePath(filepath.Dir(f.path), got, r.realCommon()) || got == r.commonDir
	}
	// A path git may write relative to the file's folder.
	want, wantOK := strings.CutPrefix(f.want, "gitdir: ")
	got, gotOK := strings.CutPrefix(got, "gitdir: ")
	return wantOK == gotOK && samePath(filepath.Dir(f.path), got, want)
}

// samePath reports whether p, relative to dir unless absolute, is want.
func samePath(dir, p, want string) bool {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p) == want
}

// ownTree makes sure the worktree at path (admin dir admin) has bh's git
// files, rewriting those that are not, and reports a tampered one.
func (r *Repo) ownTree(path, admin, branch string) error {
	what := r.notOwn(path, admin, branch)
	if len(what) == 0 {
		return nil
	}
	for _, f := range r.ownFiles(path, admin, branch) {
		if r.isOwn(f) {
			continue
		}
		if err := putOwn(f); err != nil {
			return fmt.Errorf("worktree %s: rewrite %s: %w", path, f.name, err)
		}
	}
	if r.Hooks.Tampered != nil {
		r.Hooks.Tampered(&Tampered{Path: path, What: what})
	}
	return nil
}

// putOwn writes f as bh's: whatever is there (a link, a folder, a file)
// goes first, so that nothing is followed.
func putOwn(f ownFile) error {
	fi, err := os.Lstat(f.path)
	switch {
	case err == nil && fi.IsDir():
		err = os.RemoveAll(f.path)
	case err == nil && (f.want == "" || !fi.Mode().IsRegular()):
		err = os.Remove(f.path)
	case errors.Is(err, fs.ErrNotExist):
		err = nil
	}
	if err != nil || f.want == "" {
		return err
	}
	return writeMarker(f.path, f.want)
}

// ownWorktree makes the git files of the registered worktree at path
// bh's (see ownTree), before git reads them from the main repository.
func (r *Repo) ownWorktree(path string) error {
	admin, err := r.adminOf(path)
	if err != nil || admin == "" {
		return err
	}
	return r.ownTree(path, admin, "")
}

// RepairWorktree rewrites the git files of bh's worktree at path that are
// not bh's (see ownTree).
func (r *Repo) RepairWorktree(path string) error {
	path, err := canonPath(path)
	if err != nil {
		return err
	}
	r.wtMu.Lock()
	defer r.wtMu.Unlock()
	return r.ownWorktree(path)
}

// treeRepo is the Repo of bh's linked worktree at path (admin dir admin),
// whose every git command runs guarded (see guard).
func (r *Repo) treeRepo(path, admin, branch string) *Repo {
	t := &Repo{Root: path, gitDir: admin, commonDir: r.commonDir, LockBound: r.LockBound, listing: r.listing,
		main: r, branch: branch}
	t.storeOnce.Do(func() { t.store = r.storage() })
	return t
}

// guard is a command in a task's worktree made safe: its files checked
// (ownTree), and git told its git dir, common dir and work tree, with
// the settings that start programs pinned.
func (r *Repo) guard(env, args []string) ([]string, []string, error) {
	if err := r.main.ownTree(r.Root, r.gitDir, r.branch); err != nil {
		return nil, nil, err
	}
	if env == nil {
		env = Env()
	}
	env = slices.Concat(env, []string{"GIT_DIR=" + r.gitDir, "GIT_COMMON_DIR=" + r.commonDir, "GIT_WORK_TREE=" + r.Root})
	return env, slices.Concat(r.main.pins(), args), nil
}
