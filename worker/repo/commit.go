package repo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"
)

var (
	// ErrNothingToCommit means the paths hold no change against HEAD, for
	// example because the agent committed them itself.
	ErrNothingToCommit = errors.New("nothing to commit")
	// ErrNoIdentity means git has no user.name or user.email to commit with.
	ErrNoIdentity = errors.New("git does not know who you are")
)

// Commit commits exactly paths as they are in the working tree, and nothing
// else: the user's staged changes to other paths stay staged and out of the
// commit, their unstaged and untracked files stay as they are. Additions,
// modifications and deletions all work, on an unborn branch too. A path the
// user had dirty at baseline is committed whole, their edits included.
// Hooks run as for any commit. It returns the new commit's hash.
func (r *Repo) Commit(paths []string, message string) (string, error) {
	if len(paths) == 0 {
		return "", fmt.Errorf("commit: %w", ErrNothingToCommit)
	}
	if strings.TrimSpace(message) == "" {
		return "", fmt.Errorf("commit: empty commit message")
	}
	saved, err := r.indexEntries(paths)
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	// git refuses a pathspec that names nothing it knows, so a deleted file
	// is staged only if the index has it and committed only if HEAD has it.
	var add, commit []string
	var tree *object.Tree // HEAD's, read only when a path is gone
	treeRead := false
	for _, p := range paths {
		if _, err := os.Lstat(r.abs(p)); err == nil {
			add, commit = append(add, p), append(commit, p)
			continue
		}
		if _, ok := saved[p]; ok {
			add = append(add, p)
		}
		if !treeRead {
			if tree, err = r.headTree(); err != nil {
				return "", fmt.Errorf("commit: %w", err)
			}
			treeRead = true
		}
		if inTree(tree, p) {
			commit = append(commit, p)
		}
	}
	if len(commit) == 0 {
		return "", fmt.Errorf("commit: %w", ErrNothingToCommit)
	}
	if len(add) > 0 {
		if _, err := r.git(nulJoin(add), "add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return "", r.commitFailed(saved, paths, err)
		}
	}
	list, err := os.CreateTemp("", "bh-commit-paths-")
	if err != nil {
		return "", r.commitFailed(saved, paths, err)
	}
	defer os.Remove(list.Name())
	_, err = list.Write(nulJoin(commit))
	if cerr := list.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", r.commitFailed(saved, paths, err)
	}
	// --cleanup=whitespace keeps lines starting with '#': a task title may.
	if _, err := r.git([]byte(message), "commit", "-q", "--only", "--cleanup=whitespace", "-F", "-",
		"--pathspec-from-file="+list.Name(), "--pathspec-file-nul"); err != nil {
		return "", r.commitFailed(saved, paths, err)
	}
	hash, err := r.Head()
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	return hash, nil
}

// indexEntries returns the index lines (`ls-files -s -z` form) for paths.
func (r *Repo) indexEntries(paths []string) (map[string]string, error) {
	entries := map[string]string{}
	for _, batch := range batches(paths) {
		out, err := r.read(nil, append([]string{"ls-files", "-s", "-z", "--"}, batch...)...)
		if err != nil {
			return nil, fmt.Errorf("read index: %w", err)
		}
		for _, line := range splitNul(out) {
			if _, p, ok := strings.Cut(line, "\t"); ok {
				entries[p] += line + "\x00"
			}
		}
	}
	return entries, nil
}

// hasIdentity reports whether git can name an author and a committer.
func (r *Repo) hasIdentity() bool {
	_, err := r.read(nil, "var", "GIT_AUTHOR_IDENT")
	if err == nil {
		_, err = r.read(nil, "var", "GIT_COMMITTER_IDENT")
	}
	return err == nil
}

// commitFailed puts the index entries of paths back as they were before
// Commit staged them, so a failed commit leaves the user's index untouched,
// and explains the failure.
func (r *Repo) commitFailed(saved map[string]string, paths []string, cause error) error {
	var info bytes.Buffer
	for _, p := range paths {
		fmt.Fprintf(&info, "0 %s\t%s\x00", zeroHash, p)
	}
	for _, lines := range saved {
		info.WriteString(lines)
	}
	restoreErr := error(nil)
	if _, err := r.git(info.Bytes(), "update-index", "-z", "--index-info"); err != nil {
		restoreErr = fmt.Errorf("restore index: %w", err)
	}
	// Told apart by exit status rather than by git's (translated) words:
	// "nothing to commit" is exit 1 with the status on stdout and nothing on
	// stderr, where a failing hook writes.
	var ge *gitError
	switch {
	case errors.As(cause, &ge) && ge.Code == 1 && ge.Stderr == "" && ge.Stdout != "":
		cause = ErrNothingToCommit
	case errors.As(cause, &ge) && ge.Code == 128 && !r.hasIdentity():
		cause = fmt.Errorf("%w\nhint: run git config user.name \"Your Name\" and git config user.email you@example.com", ErrNoIdentity)
	}
	return errors.Join(fmt.Errorf("commit: %w", cause), restoreErr)
}
