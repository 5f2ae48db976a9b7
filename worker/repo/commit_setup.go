package repo

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// commitHooks are the hooks `git commit` runs and `git commit-tree` does not.
var commitHooks = []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"}

// plainCommit reports whether `git commit` here would only write objects
// and move HEAD, so that bh may do just that with plumbing: no commit hook
// to run, no signing, no merge or the like in progress, and the default
// core.fileMode, core.symlinks, core.ignoreCase and core.sparseCheckout,
// under which bh's tree is the one git would write. Every doubt (an
// unreadable setting, an odd hooks path) answers false: git commit is
// always right, only slower. The configuration is read afresh each time:
// installing hooks (husky, pre-commit) while a worker runs must count.
func (r *Repo) plainCommit() bool {
	if op, err := r.InProgressOp(); err != nil || op != "" {
		return false
	}
	out, err := r.read(nil, "config", "-z", "--get-regexp",
		`^(core\.(hookspath|filemode|symlinks|ignorecase|sparsecheckout)|commit\.gpgsign)$`)
	var ge *gitError
	if err != nil && !(errors.As(err, &ge) && ge.Code == 1 && len(out) == 0) { // 1: none is set
		return false
	}
	want := map[string]bool{"core.filemode": true, "core.symlinks": true,
		"core.ignorecase": false, "core.sparsecheckout": false, "commit.gpgsign": false}
	hooks := filepath.Join(r.commonDir, "hooks")
	for _, kv := range splitNul(out) {
		key, value, hasValue := strings.Cut(kv, "\n")
		if key == "core.hookspath" {
			if hooks = r.hooksPath(value); hooks == "" {
				return false
			}
			continue
		}
		if b, ok := gitBool(value, hasValue); !ok || b != want[key] {
			return false // the last value wins, so one off is enough to stop
		}
	}
	for _, h := range commitHooks {
		if _, err := os.Lstat(filepath.Join(hooks, h)); !errors.Is(err, os.ErrNotExist) {
			return false // git decides what a non-executable hook means
		}
	}
	return true
}

// hooksPath resolves core.hooksPath as git does: "~/" is the home
// directory, a relative path is relative to the top of the working tree.
// It returns "" for what it cannot resolve.
func (r *Repo) hooksPath(v string) string {
	switch {
	case v == "":
		return ""
	case v == "~" || strings.HasPrefix(v, "~/"):
		home := os.Getenv("HOME")
		if home == "" {
			return ""
		}
		return filepath.Join(home, v[1:])
	case strings.HasPrefix(v, "~"):
		return "" // ~user
	case filepath.IsAbs(v):
		return v
	}
	return filepath.Join(r.Root, v)
}

// gitBool parses a boolean setting as git does; ok is false when git would
// not accept it. A key without "=" is true, an empty value false.
func gitBool(v string, hasValue bool) (b, ok bool) {
	if !hasValue {
		return true, true
	}
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off", "":
		return false, true
	}
	n, err := strconv.ParseInt(v, 0, 64)
	return n != 0, err == nil
}
