package worker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDemo(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "demo")
	var kinds []string
	err := RunDemo(context.Background(), dir, func(e Event) { kinds = append(kinds, string(e.Kind)+":"+string(e.Outcome)) })
	if err != nil {
		t.Fatal(err)
	}
	log := gitT(t, dir, "log", "--format=%s")
	if n := strings.Count(log, "\n") + 1; n != 4 {
		t.Fatalf("demo log:\n%s", log)
	}
	if !exists(dir, "LICENSE") || !exists(dir, "hello.sh") || gitT(t, dir, "status", "--porcelain", "--", "LICENSE", "NOTICE") != "" {
		t.Fatal("demo's files not committed")
	}
	want := "started: finished:completed started: finished:needs_input answered: started: finished:completed"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("demo events:\n got %s\nwant %s", got, want)
	}
}

// The demo's removal takes the worktrees bh made for it in its state dir.
func TestRemoveDemoLeavesNoWorktree(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := filepath.Join(t.TempDir(), "demo")
	if err := RunDemo(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Join(os.Getenv("XDG_STATE_HOME"), "bh", "worktrees")); len(ents) == 0 {
		t.Fatal("the demo made no worktree: the test shows nothing")
	}
	if err := RemoveDemo(dir); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Join(os.Getenv("XDG_STATE_HOME"), "bh", "worktrees")); len(ents) != 0 || exists(dir, "") {
		t.Errorf("left behind: %v, the demo folder %v", ents, exists(dir, ""))
	}
}
