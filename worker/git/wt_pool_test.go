package git

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A released slot's HEAD is detached where it was, read without a git
// process, and a HEAD detached already is left alone; with no stash in
// the repository none is listed. Either way the branch goes.
func TestReleaseSlotDetachesHead(t *testing.T) {
	for _, detached := range []bool{false, true} {
		r := wtRepo(t, map[string]string{"a.txt": "a\n"})
		base := wtRev(t, r.Root, "HEAD")
		path := filepath.Join(filepath.Dir(r.Root), "pool", "1")
		wt, err := r.ResetSlot(path, "tm-1", "bh/tm-1", base, r.Root, nil)
		if err != nil {
			t.Fatal(err)
		}
		wtWrite(t, wt.Path, "w.txt", "work\n")
		wtCommitAll(t, wt.Path, "work")
		tip := wtRev(t, wt.Path, "HEAD")
		if detached {
			wtGit(t, wt.Path, "checkout", "-q", "--detach")
		}
		var ran []string
		r.Hooks.Before = func(dir string, args []string) { ran = append(ran, strings.Join(args, " ")) }
		if err := r.ReleaseSlot(path, "tm-1", "bh/tm-1", true); err != nil {
			t.Fatal(err)
		}
		r.Hooks.Before = nil
		if got := wtRev(t, wt.Path, "HEAD"); got != tip {
			t.Errorf("detached: %v: HEAD %s after the release, want %s", detached, got, tip)
		}
		if b := wtGit(t, wt.Path, "branch", "--list", "bh/tm-1"); b != "" {
			t.Errorf("detached: %v: the branch is still there: %q", detached, b)
		}
		moved := slices.ContainsFunc(ran, func(a string) bool { return strings.Contains(a, "update-ref") })
		if moved == detached || slices.ContainsFunc(ran, func(a string) bool { return strings.Contains(a, "stash") }) ||
			slices.ContainsFunc(ran, func(a string) bool { return strings.Contains(a, "rev-parse") }) {
			t.Errorf("detached: %v: the release ran %q", detached, ran)
		}
	}
}
