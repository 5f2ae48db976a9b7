package usertree

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
)

const wtTaskPath = ".bh/tasks/tm-1.yaml"

// wtLandScene makes task tm-1's final commit (landed.txt changed,
// feature/new.txt added, the task file closed) and returns it with the
// task file's bytes. tracked puts an older task file in the base commit.
func wtLandScene(t *testing.T, tracked bool) (r *git.Repo, final, base string, task string) {
	t.Helper()
	files := map[string]string{"landed.txt": "old\n", "other.txt": "other\n", "staged.txt": "staged\n",
		".gitignore": "*.log\n"}
	if tracked {
		files[wtTaskPath] = "status: open\n"
	}
	r = wtRepo(t, files)
	wt, base := wtEnsure(t, r, "tm-1")
	gittest.Write(t, wt.Path, "landed.txt", "new\n")
	gittest.Write(t, wt.Path, "feature/new.txt", "feature\n")
	commit, err := commitWork(wt, base, "tm-1: feature\n")
	if err != nil {
		t.Fatal(err)
	}
	task = "status: done\n"
	if final, err = r.WithFile(commit, wtTaskPath, []byte(task)); err != nil {
		t.Fatal(err)
	}
	return r, final, base, task
}

// wtUserWork dirties the user's tree every way but for the landed paths.
func wtUserWork(t *testing.T, r *git.Repo) {
	t.Helper()
	gittest.Write(t, r.Root, "other.txt", "the user's unstaged edit\n")
	gittest.Write(t, r.Root, "staged.txt", "the user's staged edit\n")
	gittest.Git(t, r.Root, "add", "staged.txt")
	gittest.Write(t, r.Root, "notes.txt", "untracked\n")
	gittest.Write(t, r.Root, "build.log", "ignored\n")
}

func TestWtLandKeepsUserWork(t *testing.T) {
	for _, tracked := range []bool{false, true} {
		r, final, _, task := wtLandScene(t, tracked)
		wtUserWork(t, r)
		gittest.Write(t, r.Root, wtTaskPath, task) // bh's own copy, uncommitted
		before, status := gittest.Hashes(t, r.Root), gittest.Status(t, r.Root)
		if err := Of(r).Land("main", final, wtTaskPath); err != nil {
			t.Fatalf("tracked %v: %v", tracked, err)
		}
		if gittest.Rev(t, r.Root, "HEAD") != final {
			t.Fatal("HEAD did not move to the landed commit")
		}
		after := gittest.Hashes(t, r.Root)
		if after["landed.txt"] == before["landed.txt"] || after["feature/new.txt"] == "" {
			t.Fatal("the landed paths are not in the tree")
		}
		delete(after, "landed.txt")
		delete(after, "feature/new.txt")
		delete(before, "landed.txt")
		if !reflect.DeepEqual(after, before) {
			t.Fatalf("tracked %v: the user's files changed:\n got  %v\n want %v", tracked, after, before)
		}
		var want []string
		for _, l := range status {
			if l[3:] != wtTaskPath {
				want = append(want, l)
			}
		}
		if got := gittest.Status(t, r.Root); !reflect.DeepEqual(got, want) {
			t.Fatalf("tracked %v: status\n got  %q\n want %q", tracked, got, want)
		}
	}
}

// The worker writes the task file once the commit has landed.
func TestWtLandTaskFileWrittenAfter(t *testing.T) {
	r, final, _, task := wtLandScene(t, false)
	gittest.Write(t, r.Root, wtTaskPath, "status: in_progress\n")
	if err := Of(r).Land("main", final, wtTaskPath); err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, r.Root, wtTaskPath, task)
	if st := gittest.Status(t, r.Root); len(st) != 0 {
		t.Fatalf("status after landing: %q", st)
	}
}

func TestWtLandRefusedOverlap(t *testing.T) {
	for _, tracked := range []bool{false, true} {
		r, final, base, task := wtLandScene(t, tracked)
		wtUserWork(t, r)
		gittest.Write(t, r.Root, "landed.txt", "the user's own edit\n")
		gittest.Write(t, r.Root, wtTaskPath, task)
		entry := gittest.Git(t, r.Root, "ls-files", "-s", wtTaskPath)
		before, status := gittest.Hashes(t, r.Root), gittest.Status(t, r.Root)

		err := Of(r).Land("main", final, wtTaskPath)
		var lr *LandRefused
		if !errors.As(err, &lr) || !reflect.DeepEqual(lr.Paths, []string{"landed.txt"}) || lr.Dir != r.Root {
			t.Fatalf("tracked %v: Land: %v (%+v)", tracked, err, lr)
		}
		if gittest.Rev(t, r.Root, "HEAD") != base {
			t.Fatal("HEAD moved")
		}
		if got := gittest.Git(t, r.Root, "ls-files", "-s", wtTaskPath); got != entry {
			t.Fatalf("tracked %v: task file's index entry %q, want %q", tracked, got, entry)
		}
		if !reflect.DeepEqual(gittest.Hashes(t, r.Root), before) || !reflect.DeepEqual(gittest.Status(t, r.Root), status) {
			t.Fatalf("tracked %v: a refused landing changed the tree", tracked)
		}
	}
}

// The user's edit of a landed path in the tick their index was written
// (same size, inode and mtime as its entry; ctime not trusted here) stops
// the landing as any other edit of it does.
func TestWtLandRefusedEditInIndexTick(t *testing.T) {
	r, final, _, _ := wtLandScene(t, false)
	gittest.Git(t, r.Root, "config", "core.trustctime", "false")
	file, index := filepath.Join(r.Root, "landed.txt"), filepath.Join(r.Root, ".git", "index")
	tick := time.Now().Add(-time.Hour)
	if err := os.Chtimes(file, tick, tick); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, r.Root, "update-index", "--refresh") // the entry takes tick
	gittest.Write(t, r.Root, "landed.txt", "usr\n")
	for _, p := range []string{file, index} {
		if err := os.Chtimes(p, tick, tick); err != nil {
			t.Fatal(err)
		}
	}
	var lr *LandRefused
	if err := Of(r).Land("main", final, wtTaskPath); !errors.As(err, &lr) || !reflect.DeepEqual(lr.Paths, []string{"landed.txt"}) {
		t.Fatalf("Land: %v (%+v)", err, lr)
	}
	if got := gittest.Read(t, r.Root, "landed.txt"); got != "usr\n" {
		t.Fatalf("the user's edit became %q", got)
	}
}

func TestWtLandTargetMoved(t *testing.T) {
	r, final, _, _ := wtLandScene(t, false)
	gittest.Write(t, r.Root, "other.txt", "the user commits meanwhile\n")
	tip := gittest.CommitAll(t, r.Root, "meanwhile")
	before := gittest.Status(t, r.Root)
	if err := Of(r).Land("main", final, wtTaskPath); !errors.Is(err, ErrTargetMoved) {
		t.Fatalf("Land: %v", err)
	}
	if gittest.Rev(t, r.Root, "HEAD") != tip || !reflect.DeepEqual(gittest.Status(t, r.Root), before) {
		t.Fatal("a landing on a moved target changed something")
	}
	if ok, err := r.Landed("main", final); ok || err != nil {
		t.Fatalf("Landed: %v, %v", ok, err)
	}
}

func TestWtLandTwice(t *testing.T) {
	r, final, _, _ := wtLandScene(t, false)
	for i := 0; i < 2; i++ {
		if err := Of(r).Land("main", final, wtTaskPath); err != nil {
			t.Fatalf("landing #%d: %v", i+1, err)
		}
	}
	if ok, err := r.Landed("main", final); !ok || err != nil {
		t.Fatalf("Landed: %v, %v", ok, err)
	}
	gittest.Write(t, r.Root, "other.txt", "later\n")
	gittest.CommitAll(t, r.Root, "later")
	if err := Of(r).Land("main", final, wtTaskPath); err != nil {
		t.Fatalf("landing a commit main contains: %v", err)
	}
	if ok, err := r.Landed("main", final); !ok || err != nil {
		t.Fatalf("Landed below the tip: %v, %v", ok, err)
	}
}

func TestWtLandNotCheckedOut(t *testing.T) {
	r, final, base, _ := wtLandScene(t, false)
	gittest.Git(t, r.Root, "checkout", "-q", "-b", "dev")
	wtUserWork(t, r)
	before, status := gittest.Hashes(t, r.Root), gittest.Status(t, r.Root)
	if err := Of(r).Land("main", final, wtTaskPath); err != nil {
		t.Fatal(err)
	}
	if gittest.Rev(t, r.Root, "refs/heads/main") != final || gittest.Rev(t, r.Root, "HEAD") != base {
		t.Fatal("main did not move, or the checked-out dev did")
	}
	if !reflect.DeepEqual(gittest.Hashes(t, r.Root), before) || !reflect.DeepEqual(gittest.Status(t, r.Root), status) {
		t.Fatal("landing on a branch checked out nowhere changed the user's tree")
	}
}

func TestWtLandInLinkedWorktree(t *testing.T) {
	r, final, base, _ := wtLandScene(t, false)
	other := r.Root + "-release"
	gittest.Git(t, r.Root, "worktree", "add", "-q", "-b", "release", other, base)
	if err := Of(r).Land("release", final, wtTaskPath); err != nil {
		t.Fatal(err)
	}
	if gittest.Rev(t, other, "HEAD") != final || gittest.Read(t, other, "landed.txt") != "new\n" {
		t.Fatal("the linked worktree that has release checked out was not fast-forwarded")
	}
	if st := gittest.Status(t, other); len(st) != 0 {
		t.Fatalf("the linked worktree is not clean: %q", st)
	}
	if gittest.Rev(t, r.Root, "HEAD") != base {
		t.Fatal("main moved")
	}
}

// An attempt at landing cut short can leave the landing's own new files
// in the user's tree, untracked; git then refuses every later landing
// over them. Copies byte for byte of the commit's files make way; a file
// of the user's at such a path (other bytes) still refuses, kept.
func TestWtLandOverItsOwnLeftCopies(t *testing.T) {
	r, final, _, _ := wtLandScene(t, true)
	gittest.Write(t, r.Root, "feature/new.txt", "mine\n")
	var lr *LandRefused
	if err := Of(r).Land("main", final, wtTaskPath); !errors.As(err, &lr) {
		t.Fatalf("Land over the user's own feature/new.txt: %v, want a refusal", err)
	}
	if gittest.Read(t, r.Root, "feature/new.txt") != "mine\n" {
		t.Fatal("the user's file went")
	}
	gittest.Write(t, r.Root, "feature/new.txt", "feature\n") // as the commit has it
	if err := Of(r).Land("main", final, wtTaskPath); err != nil {
		t.Fatalf("Land over its own left copy: %v", err)
	}
	if gittest.Rev(t, r.Root, "HEAD") != final || gittest.Git(t, r.Root, "status", "--porcelain", "--", "feature") != "" {
		t.Errorf("after the landing HEAD is %s, feature/ shows %q", gittest.Rev(t, r.Root, "HEAD"),
			gittest.Git(t, r.Root, "status", "--porcelain", "--", "feature"))
	}
}
