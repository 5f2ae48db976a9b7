package git

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

func TestWtEnsureCreatesThenReuses(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	wt, base := wtEnsure(t, r, "tm-1")
	if got := gittest.Rev(t, r.Root, "refs/heads/bh/tm-1"); got != base {
		t.Fatalf("branch at %s, want base %s", got, base)
	}
	if gittest.Read(t, wt.Path, "a.txt") != "a\n" || wt.Branch != "bh/tm-1" {
		t.Fatalf("worktree not checked out: %+v", wt)
	}
	if !strings.Contains(gittest.Git(t, r.Root, "worktree", "list", "--porcelain"), "worktree "+wt.Path+"\n") {
		t.Fatalf("worktree %s not registered", wt.Path)
	}
	marker := filepath.Join(wt.wt.gitDir, "bh-store")
	if data, err := os.ReadFile(marker); err != nil || string(data) != r.Root+"\n" {
		t.Fatalf("bh-store marker: %q, %v", data, err)
	}

	gittest.Write(t, wt.Path, "scratch.txt", "work in progress\n")
	again, created, err := r.EnsureWorktree(wt.Path, "bh/tm-1", base, r.Root)
	if err != nil || created {
		t.Fatalf("second EnsureWorktree: created %v, %v", created, err)
	}
	if again.Path != wt.Path || gittest.Read(t, wt.Path, "scratch.txt") != "work in progress\n" {
		t.Fatal("the reused worktree lost its files")
	}
	if open, err := r.OpenWorktree(wt.Path, "bh/tm-1"); err != nil || open == nil || open.Path != wt.Path {
		t.Fatalf("OpenWorktree: %v, %v", open, err)
	}
	if none, err := r.OpenWorktree(filepath.Join(t.TempDir(), "nothing"), "bh/x"); none != nil || err != nil {
		t.Fatalf("OpenWorktree of nothing: %v, %v", none, err)
	}
}

func TestWtEnsureRecreatesAndRestores(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", ".gitignore": "*.log\n"})
	wt, base := wtEnsure(t, r, "tm-1")
	gittest.Write(t, wt.Path, "a.txt", "a changed\n")
	if err := os.Remove(filepath.Join(wt.Path, "b.txt")); err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, wt.Path, "dir/new.txt", "new\n")
	gittest.Write(t, wt.Path, "debug.log", "ignored\n")
	snap, _, err := wt.Snapshot(base, "park\n")
	if err != nil || snap == "" {
		t.Fatalf("snapshot: %q, %v", snap, err)
	}
	want := gittest.Hashes(t, wt.Path)
	delete(want, "debug.log") // ignored files are not part of the work
	wantStatus := gittest.Status(t, wt.Path)

	if err := os.RemoveAll(wt.Path); err != nil {
		t.Fatal(err)
	}
	if open, err := r.OpenWorktree(wt.Path, "bh/tm-1"); open != nil || err != nil {
		t.Fatalf("OpenWorktree of a vanished worktree: %v, %v", open, err)
	}
	wt2, created, err := r.EnsureWorktree(wt.Path, "bh/tm-1", base, r.Root)
	if err != nil || !created {
		t.Fatalf("EnsureWorktree after rm -rf: created %v, %v", created, err)
	}
	if err := wt2.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Hashes(t, wt2.Path); !reflect.DeepEqual(got, want) {
		t.Fatalf("restored files:\n got  %v\n want %v", got, want)
	}
	var noLog []string
	for _, l := range wantStatus {
		if !strings.HasSuffix(l, "debug.log") {
			noLog = append(noLog, l)
		}
	}
	if got := gittest.Status(t, wt2.Path); !reflect.DeepEqual(got, noLog) {
		t.Fatalf("status after restore:\n got  %q\n want %q", got, noLog)
	}
	if got, _ := wt2.Changed(base); !reflect.DeepEqual(got, []string{"a.txt", "b.txt", "dir/new.txt"}) {
		t.Fatalf("changed after restore: %v", got)
	}
}

func TestWtEnsureMovesAsideWhatIsInTheWay(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	base := gittest.Rev(t, r.Root, "HEAD")
	path := filepath.Join(filepath.Dir(r.Root), "worktrees", "tm-1")
	gittest.Write(t, path, "precious.txt", "not bh's\n")
	wt, created, err := r.EnsureWorktree(path, "bh/tm-1", base, r.Root)
	if err != nil || !created {
		t.Fatalf("EnsureWorktree: created %v, %v", created, err)
	}
	aside, _ := filepath.Glob(path + ".orphan-*")
	if len(aside) != 1 || gittest.Read(t, aside[0], "precious.txt") != "not bh's\n" {
		t.Fatalf("the directory in the way was not moved aside: %v", aside)
	}
	if gittest.Read(t, wt.Path, "a.txt") != "a\n" || gittest.Exists(wt.Path, "precious.txt") {
		t.Fatal("the worktree is not a fresh checkout")
	}
}

// A `git worktree add` killed early leaves its registration behind with
// git's "initializing" lock, maybe an index.lock, and no directory.
func TestWtEnsureAfterKilledAddNoDirectory(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	wt, base := wtEnsure(t, r, "tm-1")
	admin := wt.wt.gitDir
	if err := os.RemoveAll(wt.Path); err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, admin, "locked", "initializing")
	gittest.Write(t, admin, "index.lock", "")
	wt2, created, err := r.EnsureWorktree(wt.Path, "bh/tm-1", base, r.Root)
	if err != nil || !created {
		t.Fatalf("EnsureWorktree after a killed add: created %v, %v", created, err)
	}
	if gittest.Read(t, wt2.Path, "a.txt") != "a\n" {
		t.Fatal("worktree not checked out")
	}
	gittest.Write(t, wt2.Path, "b.txt", "b\n")
	if _, err := wt2.commit(base, "work\n", nil); err != nil {
		t.Fatalf("the recreated worktree is wedged: %v", err)
	}
}

// Killed later, during the checkout: the directory is there, half filled.
func TestWtEnsureAfterKilledAddHalfCheckedOut(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	wt, base := wtEnsure(t, r, "tm-1")
	gittest.Write(t, wt.wt.gitDir, "locked", "initializing")
	gittest.Write(t, wt.wt.gitDir, "index.lock", "")
	gittest.Write(t, wt.wt.gitDir, "HEAD", strings.Repeat("0", 40)+"\n") // git's placeholder
	if err := os.Remove(filepath.Join(wt.Path, "b.txt")); err != nil {
		t.Fatal(err)
	}
	wt2, created, err := r.EnsureWorktree(wt.Path, "bh/tm-1", base, r.Root)
	if err != nil || !created {
		t.Fatalf("EnsureWorktree after a killed add: created %v, %v", created, err)
	}
	if paths, err := wt2.Changed(base); err != nil || len(paths) != 0 {
		t.Fatalf("the half checkout shows as work: %v, %v", paths, err)
	}
	if aside, _ := filepath.Glob(wt.Path + ".orphan-*"); len(aside) != 0 {
		t.Fatalf("git's own half checkout was moved aside: %v", aside)
	}
}

// A crash after `worktree add -b` made the branch but before anything
// else: the branch is reused as it is.
func TestWtEnsureBranchLeftBehind(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	base := gittest.Rev(t, r.Root, "HEAD")
	gittest.Git(t, r.Root, "branch", "bh/tm-1", base)
	gittest.Write(t, r.Root, "a.txt", "moved on\n")
	gittest.CommitAll(t, r.Root, "later")
	path := filepath.Join(filepath.Dir(r.Root), "worktrees", "tm-1")
	wt, created, err := r.EnsureWorktree(path, "bh/tm-1", gittest.Rev(t, r.Root, "HEAD"), r.Root)
	if err != nil || !created {
		t.Fatalf("EnsureWorktree: created %v, %v", created, err)
	}
	if got := gittest.Rev(t, wt.Path, "HEAD"); got != base {
		t.Fatalf("HEAD %s, want the existing branch's %s", got, base)
	}
}

// The branch is still registered as checked out at a worktree that vanished
// from another path (the worktree folder was configured elsewhere before).
func TestWtEnsureBranchHeldByVanishedWorktree(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	old, base := wtEnsure(t, r, "tm-1")
	if err := os.RemoveAll(old.Path); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(filepath.Dir(r.Root), "elsewhere", "tm-1")
	wt, created, err := r.EnsureWorktree(path, "bh/tm-1", base, r.Root)
	if err != nil || !created || gittest.Read(t, wt.Path, "a.txt") != "a\n" {
		t.Fatalf("EnsureWorktree: created %v, %v", created, err)
	}
}
