package usertree

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
)

// A sync killed after it moved the user's tree and before it moved the
// branch: the next sync finishes the move instead of taking the pulled
// files for the user's own changes and refusing every later pull.
func TestIntegrateKilledBeforeTheBranchMoves(t *testing.T) {
	r, theirs, tip := divergedRepo(t) // theirs changes a user's file; mine is replayed on it
	root := r.Root

	// The kill: the goroutine running the sync ends as update-ref starts.
	killIntegrate(r, theirs, func(args []string) bool {
		return slices.Contains(args, "update-ref") && slices.Contains(args, "bh: sync")
	})
	if got := gittest.Rev(t, root, "HEAD"); got != tip {
		t.Fatalf("HEAD moved to %s: the kill came too late", got)
	}
	if st := gittest.Git(t, root, "status", "--porcelain"); !strings.Contains(st, "u.txt") {
		t.Fatalf("the tree did not move before the kill: %q", st)
	}

	moved, err := Of(r).finishIntegrate()
	if err != nil || !moved {
		t.Fatalf("finishIntegrate = %v, %v", moved, err)
	}
	if st := gittest.Git(t, root, "status", "--porcelain"); st != "" {
		t.Errorf("after the finish the tree is not clean: %q", st)
	}
	if log := gittest.Git(t, root, "log", "--format=%s", "main"); log != "mine\ntheirs\ninitial\n" {
		t.Errorf("main's log %q: want mine replayed on theirs", log)
	}
	if moved, err := Of(r).finishIntegrate(); moved || err != nil {
		t.Errorf("a second finish moved %v, %v: the note should be gone", moved, err)
	}
}

// A user who commits while the sync replays, every time (faster than a
// whole replay takes): the sync replays their new commits too, and lands
// all of them on theirs, their tree as they left it.
func TestIntegrateCatchesUpWithAUserCommitting(t *testing.T) {
	r := wtRepo(t, map[string]string{"u.txt": "base\n"})
	root := r.Root
	gittest.Git(t, root, "checkout", "-q", "-b", "other")
	gittest.Write(t, root, "theirs.txt", "theirs\n")
	gittest.Git(t, root, "add", "theirs.txt")
	gittest.Git(t, root, "commit", "-q", "-m", "theirs")
	theirs := gittest.Rev(t, root, "HEAD")
	gittest.Git(t, root, "checkout", "-q", "main")
	gittest.Write(t, root, "u.txt", "mine 0\n")
	gittest.Git(t, root, "commit", "-q", "-am", "mine 0")

	commits := 0
	r.Hooks.Before = func(dir string, args []string) {
		if slices.Contains(args, "merge-tree") && commits < 3 { // in the middle of each replay
			commits++
			gittest.Write(t, root, "u.txt", fmt.Sprintf("mine %d\n", commits))
			gittest.Git(t, root, "commit", "-q", "-am", fmt.Sprintf("mine %d", commits))
		}
	}
	if err := Of(r).Integrate("main", theirs); err != nil {
		t.Fatalf("Integrate: %v", err)
	}
	if log := gittest.Git(t, root, "log", "--format=%s", "main"); log != "mine 3\nmine 2\nmine 1\nmine 0\ntheirs\ninitial\n" {
		t.Errorf("main's log %q: want the user's commits, all, replayed on theirs", log)
	}
	if st := gittest.Git(t, root, "status", "--porcelain"); st != "" {
		t.Errorf("the user's tree is not clean: %q", st)
	}
	if u := gittest.Read(t, root, "u.txt"); u != "mine 3\n" {
		t.Errorf("u.txt = %q", u)
	}
}

// A sync killed while its read-tree runs: that git lives on (bh never
// kills its git) and moves the tree after the next sync has started. The
// next sync waits for it to let go of the index before it judges whether
// the tree moved: judged too early, it would drop the note, and the moved
// tree would look like the user's staged changes to every later pull.
func TestIntegrateKilledDuringItsReadTree(t *testing.T) {
	r, theirs, tip := divergedRepo(t)
	root := r.Root

	killIntegrate(r, theirs, func(args []string) bool { return slices.Contains(args, "read-tree") })
	note, err := os.ReadFile(Of(r).pendingFile())
	if err != nil {
		t.Fatalf("no note of the sync: %v", err)
	}
	rebased := strings.Fields(string(note))[2]
	// The orphaned read-tree: it holds index.lock, holding the new index,
	// and puts it in place once the next sync has found it at work.
	lock := filepath.Join(root, ".git", "index.lock")
	tmp := filepath.Join(t.TempDir(), "index")
	c := exec.Command("git", "read-tree", rebased)
	c.Dir, c.Env = root, append(os.Environ(), "GIT_INDEX_FILE="+tmp)
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("read-tree: %v %s", err, out)
	}
	data, _ := os.ReadFile(tmp)
	if err := os.WriteFile(lock, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r.Hooks.Wait = func(w git.LockWait) {
		if w.Path == lock {
			gittest.Write(t, root, "u.txt", "theirs\n")
			if err := os.Rename(lock, filepath.Join(root, ".git", "index")); err != nil {
				t.Error(err)
			}
		}
	}
	moved, err := Of(r).finishIntegrate()
	if err != nil || !moved {
		t.Fatalf("finishIntegrate = %v, %v: want the branch moved once the read-tree let go", moved, err)
	}
	if got := gittest.Rev(t, root, "HEAD"); got == tip || got != rebased {
		t.Errorf("HEAD %s, want the sync's %s", got, rebased)
	}
	if st := gittest.Git(t, root, "status", "--porcelain"); st != "" {
		t.Errorf("the tree is not clean: %q", st)
	}
}

// A landing after a sync killed between moving the tree and the branch
// (a worker restarted lands a recovered task before its first sync)
// finishes that sync first: a fast-forward would carry the pulled files
// along as staged changes of the user's, and drop the sync's note.
func TestLandFinishesAKilledSyncFirst(t *testing.T) {
	r, theirs, tip := divergedRepo(t)
	root := r.Root
	task := gittest.Git(t, root, "commit-tree", "-p", tip, "-m", "a task", tip+"^{tree}")
	killIntegrate(r, theirs, func(args []string) bool {
		return slices.Contains(args, "update-ref") && slices.Contains(args, "bh: sync")
	})

	if err := Of(r).Land("main", strings.TrimSpace(task), ""); !errors.Is(err, ErrTargetMoved) {
		t.Errorf("Land = %v, want ErrTargetMoved: the sync finished first, the task to rebase", err)
	}
	if log := gittest.Git(t, root, "log", "--format=%s", "main"); log != "mine\ntheirs\ninitial\n" {
		t.Errorf("main's log %q: want the killed sync finished", log)
	}
	if st := gittest.Git(t, root, "status", "--porcelain"); st != "" {
		t.Errorf("the tree is not clean: %q", st)
	}
}

// divergedRepo is a clone whose main has a commit of its own (mine.txt)
// while the remote's has another (theirs, changing u.txt): what a sync
// replays. tip is main's.
func divergedRepo(t *testing.T) (r *git.Repo, theirs, tip string) {
	t.Helper()
	r = wtRepo(t, map[string]string{"u.txt": "base\n"})
	root := r.Root
	gittest.Git(t, root, "checkout", "-q", "-b", "other")
	gittest.Write(t, root, "u.txt", "theirs\n")
	gittest.Git(t, root, "commit", "-q", "-am", "theirs")
	theirs = gittest.Rev(t, root, "HEAD")
	gittest.Git(t, root, "checkout", "-q", "main")
	gittest.Write(t, root, "mine.txt", "mine\n")
	gittest.Git(t, root, "add", "mine.txt")
	gittest.Git(t, root, "commit", "-q", "-m", "mine")
	return r, theirs, gittest.Rev(t, root, "HEAD")
}

// killIntegrate runs a sync of main to theirs that is killed (its
// goroutine ended) as the first git command at matches starts.
func killIntegrate(r *git.Repo, theirs string, at func(args []string) bool) {
	r.Hooks.Before = func(dir string, args []string) {
		if at(args) {
			runtime.Goexit()
		}
	}
	done := make(chan struct{})
	go func() { defer close(done); Of(r).Integrate("main", theirs) }()
	<-done
	r.Hooks.Before = nil
}

// A file the pull changes that the user only touched (its bytes as
// committed) is no change of theirs: the sync refreshes the index first.
func TestIntegrateOverATouchedFile(t *testing.T) {
	r, theirs, _ := divergedRepo(t)
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(r.Root, "u.txt"), later, later); err != nil {
		t.Fatal(err)
	}
	if err := Of(r).Integrate("main", theirs); err != nil {
		t.Fatalf("Integrate over a touched file: %v", err)
	}
	if got := gittest.Read(t, r.Root, "u.txt"); got != "theirs\n" {
		t.Errorf("u.txt = %q", got)
	}
}

// A commit of the user's whose changes the remote has already (it took in
// what a pull brought, at the same instant) stays in their history when a
// sync replays it, empty; bh's own such commits go.
func TestIntegrateKeepsTheUsersEmptiedCommit(t *testing.T) {
	r := wtRepo(t, map[string]string{"u.txt": "base\n", "v.txt": "base\n"})
	root := r.Root
	gittest.Git(t, root, "checkout", "-q", "-b", "other")
	gittest.Write(t, root, "u.txt", "theirs\n")
	gittest.Write(t, root, "v.txt", "theirs\n")
	gittest.Git(t, root, "commit", "-q", "-am", "theirs")
	theirs := gittest.Rev(t, root, "HEAD")
	gittest.Git(t, root, "checkout", "-q", "main")
	gittest.Write(t, root, "u.txt", "theirs\n") // a part of what theirs holds
	gittest.Git(t, root, "commit", "-q", "-am", "the user's, as theirs")
	if err := Of(r).Integrate("main", theirs); err != nil {
		t.Fatalf("Integrate: %v", err)
	}
	if log := gittest.Git(t, root, "log", "--format=%s", "main"); log != "the user's, as theirs\ntheirs\ninitial\n" {
		t.Errorf("main's log %q: want the user's commit kept", log)
	}
}

// The same for a user's commit whose patch is one upstream has (it took
// in exactly what one commit of the pull brought).
func TestIntegrateKeepsTheUsersCommitOfAnUpstreamPatch(t *testing.T) {
	r, theirs, _ := divergedRepo(t)
	root := r.Root
	gittest.Write(t, root, "u.txt", "theirs\n") // theirs' very change
	gittest.Git(t, root, "commit", "-q", "-am", "the user's, as theirs")
	if err := Of(r).Integrate("main", theirs); err != nil {
		t.Fatalf("Integrate: %v", err)
	}
	if log := gittest.Git(t, root, "log", "--format=%s", "main"); log != "the user's, as theirs\nmine\ntheirs\ninitial\n" {
		t.Errorf("main's log %q: want the user's commit kept", log)
	}
}
