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

// A slot's reset whose real `git checkout -f -B` is killed (with its
// children) in the middle, made slow by a smudge filter, its index.lock
// left behind: the next ResetSlot finishes the job, the files and index
// those of the new base, nothing of the last holder's left.
func TestSlotResetAfterRealKilledCheckout(t *testing.T) {
	r := slowRepo(t, "cat")
	old := gittest.Rev(t, r.Root, "HEAD")
	path := filepath.Join(filepath.Dir(r.Root), "pool", "1")
	wt, err := r.ResetSlot(path, "tm-1", "bh/tm-1", old, r.Root, nil)
	if err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, wt.Path, "left.txt", "the last holder's\n")
	if err := r.ReleaseSlot(path, "tm-1", "bh/tm-1", true); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		gittest.Write(t, r.Root, f, f+" again\n")
	}
	gittest.Git(t, r.Root, "commit", "-q", "-am", "again")
	base := gittest.Rev(t, r.Root, "HEAD")

	gittest.Git(t, r.Root, "config", "filter.slow.smudge", "sleep 0.3; cat")
	cmd := exec.Command("git", "checkout", "-q", "-f", "-B", "bh/tm-2", base)
	cmd.Dir = wt.Path
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(wt.wt.gitDir, "index.lock")
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

	wt, err = r.ResetSlot(path, "tm-2", "bh/tm-2", base, r.Root, nil)
	if err != nil {
		t.Fatalf("ResetSlot after a killed checkout: %v", err)
	}
	if st := gittest.Git(t, wt.Path, "status", "--porcelain", "--ignored", "--untracked-files=all"); st != "" {
		t.Fatalf("the slot is not clean: %q", st)
	}
	if gittest.Read(t, wt.Path, "c.txt") != "c.txt again\n" || gittest.Rev(t, wt.Path, "HEAD") != base {
		t.Fatal("the slot is not at the new base")
	}
	list, err := r.LinkedWorktrees()
	if err != nil || len(list) != 1 || list[0].Holder != "tm-2" || list[0].Branch != "bh/tm-2" {
		t.Fatalf("slots: %+v, %v", list, err)
	}
}
