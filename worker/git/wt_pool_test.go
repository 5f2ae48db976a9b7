package git

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// A released slot's HEAD is detached where it was, read without a git
// process, and a HEAD detached already is left alone; with no stash in
// the repository none is listed. Either way the branch goes.
func TestReleaseSlotDetachesHead(t *testing.T) {
	for _, detached := range []bool{false, true} {
		r := wtRepo(t, map[string]string{"a.txt": "a\n"})
		base := gittest.Rev(t, r.Root, "HEAD")
		path := filepath.Join(filepath.Dir(r.Root), "pool", "1")
		wt, err := r.ResetSlot(path, "tm-1", "bh/tm-1", base, r.Root, nil)
		if err != nil {
			t.Fatal(err)
		}
		gittest.Write(t, wt.Path, "w.txt", "work\n")
		gittest.CommitAll(t, wt.Path, "work")
		tip := gittest.Rev(t, wt.Path, "HEAD")
		if detached {
			gittest.Git(t, wt.Path, "checkout", "-q", "--detach")
		}
		var ran []string
		r.Hooks.Before = func(dir string, args []string) { ran = append(ran, strings.Join(args, " ")) }
		if err := r.ReleaseSlot(path, "tm-1", "bh/tm-1", true); err != nil {
			t.Fatal(err)
		}
		r.Hooks.Before = nil
		if got := gittest.Rev(t, wt.Path, "HEAD"); got != tip {
			t.Errorf("detached: %v: HEAD %s after the release, want %s", detached, got, tip)
		}
		if b := gittest.Git(t, wt.Path, "branch", "--list", "bh/tm-1"); b != "" {
			t.Errorf("detached: %v: the branch is still there: %q", detached, b)
		}
		moved := slices.ContainsFunc(ran, func(a string) bool { return strings.Contains(a, "update-ref") })
		if moved == detached || slices.ContainsFunc(ran, func(a string) bool { return strings.Contains(a, "stash") }) ||
			slices.ContainsFunc(ran, func(a string) bool { return strings.Contains(a, "rev-parse") }) {
			t.Errorf("detached: %v: the release ran %q", detached, ran)
		}
	}
}
