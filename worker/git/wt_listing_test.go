package git

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// A shared listing serves a step's questions with one git worktree list;
// a change bh makes drops it (the next question sees the change), and once
// the step is done a worktree the user adds is seen at once.
func TestShareListing(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	lists := 0
	r.Hooks.Before = func(dir string, args []string) {
		if slices.Contains(args, "list") {
			lists++
		}
	}
	paths := func() []string {
		t.Helper()
		list, err := r.LinkedWorktrees()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range list {
			out = append(out, filepath.Base(e.Path))
		}
		slices.Sort(out)
		return out
	}
	tmp, _ := canonPath(t.TempDir())
	done := r.ShareListing()
	paths()
	paths()
	if lists != 1 {
		t.Errorf("%d listings for two questions in one step, want 1", lists)
	}
	if _, err := r.Write(nil, "worktree", "add", "-q", "--detach", filepath.Join(tmp, "bhs")); err != nil {
		t.Fatal(err)
	}
	if got := paths(); !slices.Equal(got, []string{"bhs"}) || lists != 2 {
		t.Errorf("after bh's worktree add: %q (%d listings), want it listed again", got, lists)
	}
	done()
	gittest.Git(t, r.Root, "worktree", "add", "-q", "--detach", filepath.Join(tmp, "users"))
	if got := paths(); !slices.Equal(got, []string{"bhs", "users"}) {
		t.Errorf("after the step, the user's worktree add: %q, want it seen", got)
	}
	if paths(); lists != 4 {
		t.Errorf("%d listings, want every question outside a step to list (4)", lists)
	}
}
