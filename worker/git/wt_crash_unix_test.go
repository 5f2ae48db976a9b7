//go:build unix

package git

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/worker/git/gittest"
)

// A real `git worktree add`, killed (with its children) in the middle of
// its checkout, made slow by a smudge filter: the next EnsureWorktree
// finishes the job.
func TestWtEnsureAfterRealKilledAdd(t *testing.T) {
	r := slowRepo(t, "sleep 0.3; cat")
	base := gittest.Rev(t, r.Root, "HEAD")
	path := filepath.Join(filepath.Dir(r.Root), "worktrees", "tm-1")
	cmd := exec.Command("git", "worktree", "add", "-q", "-b", "bh/tm-1", path, base)
	cmd.Dir = r.Root
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(r.commonDir, "worktrees", "tm-1", "index.lock")
	for deadline := time.Now().Add(fakeapi.Patience(5 * time.Second)); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(lock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the checkout never started")
		}
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Wait()
	if _, err := os.Stat(lock); err != nil {
		t.Fatalf("the kill left no index.lock behind: %v", err)
	}
	gittest.Git(t, r.Root, "config", "filter.slow.smudge", "cat")

	wt, created, err := r.EnsureWorktree(path, "bh/tm-1", base, r.Root)
	if err != nil || !created {
		t.Fatalf("EnsureWorktree after a killed add: created %v, %v", created, err)
	}
	if paths, err := wt.Changed(base); err != nil || len(paths) != 0 {
		t.Fatalf("the recreated worktree differs from base: %v, %v", paths, err)
	}
	if gittest.Read(t, wt.Path, "c.txt") != "c\n" {
		t.Fatal("the worktree is not fully checked out")
	}
}

// slowRepo is a repository of three files whose checkout runs smudge per
// file (a filter that sleeps makes a checkout slow enough to kill in its
// middle).
func slowRepo(t *testing.T, smudge string) *Repo {
	t.Helper()
	r := wtRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n",
		".gitattributes": "*.txt filter=slow\n"})
	gittest.Git(t, r.Root, "config", "filter.slow.smudge", smudge)
	gittest.Git(t, r.Root, "config", "filter.slow.clean", "cat")
	return r
}
