package cmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker"
)

func TestDemo(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "demo")
	var kinds []string
	err := runDemo(context.Background(), dir, func(e worker.Event) { kinds = append(kinds, string(e.Kind)+":"+string(e.Outcome)) })
	if err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	log := git("log", "--format=%s")
	if n := strings.Count(log, "\n") + 1; n != 4 {
		t.Fatalf("demo log:\n%s", log)
	}
	if !fileExists(dir, "LICENSE") || !fileExists(dir, "hello.sh") || git("status", "--porcelain", "--", "LICENSE", "NOTICE") != "" {
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
	if err := runDemo(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Join(os.Getenv("XDG_STATE_HOME"), "bh", "worktrees")); len(ents) == 0 {
		t.Fatal("the demo made no worktree: the test shows nothing")
	}
	if err := removeDemo(dir); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Join(os.Getenv("XDG_STATE_HOME"), "bh", "worktrees")); len(ents) != 0 || fileExists(dir, "") {
		t.Errorf("left behind: %v, the demo folder %v", ents, fileExists(dir, ""))
	}
}
