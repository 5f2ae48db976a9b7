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

// Submodules in a task's worktree. bh checks each out as git would, from
// a repository it trusts: the user's own clone of it (<git dir>/modules/
// <name>), else a bare mirror of bh's (<git dir>/bh/modules/<name>)
// fetched from its URL as the user's config allows. The submodule's own
// git dir in the worktree's admin dir is the agent's to write, so bh never
// runs git there: what changed inside is read against the trusted
// repository. bh lands no change inside a submodule (its commits would
// live in the worktree only), and never drops one in silence:
// SubmoduleChanges names them.

// submodule is a gitlink of a tree, with its name in .gitmodules.
type submodule struct{ name, path, commit string }

// submodulesAt lists the submodules of commit's tree: the gitlinks its
// .gitmodules names (read in-process first: most trees have none). A
// nested repository staged without an entry there is no submodule: it
// lands as the gitlink it is.
func (r *Repo) submodulesAt(commit string) ([]submodule, error) {
	if e, err := r.BlobEntry(commit, ".gitmodules"); err != nil || e == "" {
		return nil, err
	}
	out, err := r.Read(nil, "config", "-z", "--blob", commit+":.gitmodules", "--get-regexp", `^submodule\..*\.path$`)
	if err != nil && !IsExit(err, 1) { // 1: no entry
		return nil, err
	}
	names := map[string]string{} // by path
	args := []string{"ls-tree", "-z", commit, "--"}
	for _, rec := range SplitNul(out) {
		key, path, _ := strings.Cut(rec, "\n")
		names[path] = strings.TrimSuffix(strings.TrimPrefix(key, "submodule."), ".path")
		args = append(args, path)
	}
	if len(names) == 0 {
		return nil, nil
	}
	if out, err = r.Read(nil, args...); err != nil {
		return nil, err
	}
	var subs []submodule
	for _, rec := range SplitNul(out) {
		meta, path, ok := strings.Cut(rec, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 && f[0] == "160000" && safeName(names[path]) {
			subs = append(subs, submodule{name: names[path], path: path, commit: f[2]})
		}
	}
	return subs, nil
}

// safeName reports whether a submodule's name may name its folders
// (modules/<name>): git refuses names that climb out, and so does bh,
// which removes and remakes them.
func safeName(name string) bool {
	if name == "" || filepath.IsAbs(name) || strings.ContainsAny(name, "\\\x00") {
		return false
	}
	for _, part := range strings.Split(name, "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return true
}

// trustedModule is the repository bh checks submodule s out from (see
// above), made when missing; "" when there is none to be had (no URL, or
// the user's config refuses its transport): the submodule then stays
// empty, as git leaves one not initialised.
func (r *Repo) trustedModule(s submodule, commit string) (string, error) {
	own := filepath.Join(r.commonDir, "modules", s.name)
	if r.hasCommit(own, s.commit) {
		return own, nil
	}
	mirror := filepath.Join(r.commonDir, "bh", "modules", s.name)
	if r.hasCommit(mirror, s.commit) {
		return mirror, nil
	}
	url := r.moduleURL(s, commit)
	if url == "" {
		return "", nil
	}
	if _, err := os.Stat(mirror); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(mirror), 0o777); err != nil {
			return "", err
		}
		if _, err := r.Run(r.Root, Env("LC_ALL=C"), nil, "clone", "-q", "--bare", "--", url, mirror); err != nil {
			os.RemoveAll(mirror)
			return "", nil
		}
	} else if _, err := r.subGit(mirror, "", nil, "fetch", "-q", "--", url, "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"); err != nil {
		return "", nil
	}
	if !r.hasCommit(mirror, s.commit) {
		return "", nil
	}
	return mirror, nil
}

// moduleURL is submodule s's URL: the user's own (their config, set by
// `git submodule init`), else .gitmodules' at commit; "" for a relative
// one (it would be the remote's, which bh does not guess).
func (r *Repo) moduleURL(s submodule, commit string) string {
	out, err := r.Read(nil, "config", "--get", "submodule."+s.name+".url")
	if err != nil {
		out, _ = r.Read(nil, "config", "--blob", commit+":.gitmodules", "--get", "submodule."+s.name+".url")
	}
	url := strings.TrimSpace(string(out))
	if strings.HasPrefix(url, "./") || strings.HasPrefix(url, "../") {
		return ""
	}
	return url
}

// hasCommit reports whether the repository at gitDir holds commit.
func (r *Repo) hasCommit(gitDir, commit string) bool {
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
		return false
	}
	_, err := r.subGit(gitDir, "", nil, "cat-file", "-e", commit+"^{commit}")
	return err == nil
}

// subGit runs git on the repository at gitDir (a trusted one, see above)
// with workTree its work tree ("" for none), the settings that start
// programs pinned as in a task's worktree.
func (r *Repo) subGit(gitDir, workTree string, env []string, args ...string) ([]byte, error) {
	if env == nil {
		env = Env("LC_ALL=C")
	}
	env = append(env, "GIT_DIR="+gitDir)
	dir := gitDir
	if workTree != "" {
		env, dir = append(env, "GIT_WORK_TREE="+workTree), workTree
	}
	return r.Run(dir, env, nil, append(r.pins(), args...)...)
}

// initSubmodules checks out every submodule of the worktree's HEAD at its
// gitlink's commit: its files at its path, its git dir in the worktree's
// admin dir (modules/<name>, as git keeps it), both made afresh: what an
// earlier task left there is the agent's.
func (w *Worktree) initSubmodules() error {
	head, err := w.wt.Head()
	if err != nil || head == "" {
		return err
	}
	subs, err := w.repo.submodulesAt(head)
	if err != nil {
		return err
	}
	for _, s := range subs {
		if err := w.initSubmodule(s, head); err != nil {
			return fmt.Errorf("submodule %s: %w", s.path, err)
		}
	}
	return nil
}

func (w *Worktree) initSubmodule(s submodule, head string) error {
	from, err := w.repo.trustedModule(s, head)
	if err != nil || from == "" {
		return err
	}
	dir, gitDir := filepath.Join(w.Path, filepath.FromSlash(s.path)), filepath.Join(w.wt.gitDir, "modules", s.name)
	for _, d := range []string{gitDir, dir} { // a link there goes, not what it names
		if err := os.RemoveAll(d); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(gitDir), 0o777); err != nil {
		return err
	}
	// Run from the main tree: in the admin dir, git would take it for a
	// repository and read its config.
	if _, err := w.repo.Run(w.repo.Root, Env("LC_ALL=C"), nil, append(w.repo.pins(),
		"clone", "-q", "--no-checkout", "--separate-git-dir", gitDir, "--", from, dir)...); err != nil {
		return err
	}
	_, err = w.repo.subGit(gitDir, dir, nil, "checkout", "-q", "--detach", s.commit)
	return err
}

// SubmoduleChanges names the submodules (of base's tree) the worktree
// changed: a gitlink staged at another commit, or files inside that
// differ from its commit's (edited, added, removed, or committed in the
// submodule). bh lands none of these.
func (w *Worktree) SubmoduleChanges(base string) ([]string, error) {
	subs, err := w.repo.submodulesAt(base)
	if err != nil || len(subs) == 0 {
		return nil, err
	}
	staged, err := w.gitlinks(nil)
	if err != nil {
		return nil, err
	}
	var changed []string
	for _, s := range subs {
		now, ok := staged[s.path]
		if !ok {
			continue // removed: a change of the superproject's, landed as such
		}
		inside, err := w.changedInside(s, base)
		if err != nil {
			return nil, fmt.Errorf("submodule %s: %w", s.path, err)
		}
		if now != s.commit || inside {
			changed = append(changed, s.path)
		}
	}
	return changed, nil
}

// changedInside reports whether submodule s's files differ from its
// commit's: read by git on the trusted repository with an index of its
// own, never through the submodule's git dir. One never checked out
// (empty, as git leaves it) changed if anything is in it now.
func (w *Worktree) changedInside(s submodule, base string) (bool, error) {
	dir := filepath.Join(w.Path, filepath.FromSlash(s.path))
	from, err := w.repo.trustedModule(s, base)
	if err != nil {
		return false, err
	}
	if from == "" {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return len(entries) > 0, err
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return true, nil
	}
	ix, err := os.CreateTemp("", "bh-subindex-")
	if err != nil {
		return false, err
	}
	ix.Close()
	defer os.Remove(ix.Name())
	os.Remove(ix.Name()) // read-tree writes it anew
	env := Env("LC_ALL=C", "GIT_INDEX_FILE="+ix.Name())
	if _, err := w.repo.subGit(from, dir, env, "read-tree", s.commit); err != nil {
		return false, err
	}
	out, err := w.repo.subGit(from, dir, env, "--no-optional-locks", "status", "--porcelain", "-z", "--untracked-files=all", "--ignore-submodules=all")
	return len(out) > 0, err
}

// KeepSubmodulesAt stages the gitlinks of paths (submodules of base's
// tree) at base's commits again, so that the work lands without the
// agent's changes of them: a human answered to land it so.
func (w *Worktree) KeepSubmodulesAt(base string, paths []string) error {
	subs, err := w.repo.submodulesAt(base)
	if err != nil {
		return err
	}
	for _, s := range subs {
		if slices.Contains(paths, s.path) {
			if _, err := w.wt.Write(nil, "update-index", "--cacheinfo", "160000,"+s.commit+","+s.path); err != nil {
				return fmt.Errorf("submodule %s: %w", s.path, err)
			}
		}
	}
	return nil
}
