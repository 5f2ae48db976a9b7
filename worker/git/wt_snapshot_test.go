package git

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// wtAgentWork does in wt what an agent might: a commit of its own, then
// uncommitted edits, a deletion, new and ignored files, and .bh/ changes.
func wtAgentWork(t *testing.T, wt *Worktree) {
	t.Helper()
	gittest.Write(t, wt.Path, "c.txt", "committed by the agent\n")
	gittest.Write(t, wt.Path, ".bh/tasks/tm-1.yaml", "agent committed this\n")
	gittest.CommitAll(t, wt.Path, "agent's own commit")
	gittest.Write(t, wt.Path, "a.txt", "a changed\n")
	if err := os.Remove(filepath.Join(wt.Path, "b.txt")); err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, wt.Path, "new/file.txt", "untracked\n")
	gittest.Write(t, wt.Path, "debug.log", "ignored\n")
	gittest.Write(t, wt.Path, ".bh/tasks/tm-2.yaml", "not the agent's work\n")
}

func wtTaskRepo(t *testing.T) *Repo {
	return wtRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n",
		".gitignore": "*.log\n", ".bh/tasks/tm-1.yaml": "status: open\n"})
}

func TestWtSnapshot(t *testing.T) {
	r := wtTaskRepo(t)
	wt, base := wtEnsure(t, r, "tm-1")
	wtAgentWork(t, wt)
	head := gittest.Rev(t, wt.Path, "HEAD")
	index := filepath.Join(wt.wt.gitDir, "index")
	beforeIndex, beforeStatus, beforeFiles := gittest.FileHash(t, index), gittest.Status(t, wt.Path), gittest.Hashes(t, wt.Path)

	commit, paths, err := wt.Snapshot(base, "bh: park tm-1\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.txt", "b.txt", "c.txt", "new/file.txt"}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("paths %v, want %v", paths, want)
	}
	if got := gittest.Rev(t, r.Root, commit+"^@"); got != base {
		t.Fatalf("snapshot's parents %q, want base %s", got, base)
	}
	files := gittest.Tree(t, r.Root, commit)
	baseFiles := gittest.Tree(t, r.Root, base)
	if _, ok := files["b.txt"]; ok {
		t.Error("the deleted file is in the snapshot")
	}
	if _, ok := files["debug.log"]; ok {
		t.Error("the ignored file is in the snapshot")
	}
	if files[".bh/tasks/tm-1.yaml"] != baseFiles[".bh/tasks/tm-1.yaml"] || files[".bh/tasks/tm-2.yaml"] != "" {
		t.Error(".bh/ in the snapshot is not base's")
	}
	if gittest.Git(t, r.Root, "show", commit+":a.txt") != "a changed\n" ||
		gittest.Git(t, r.Root, "show", commit+":new/file.txt") != "untracked\n" ||
		gittest.Git(t, r.Root, "show", commit+":c.txt") != "committed by the agent\n" {
		t.Error("the snapshot misses the agent's work")
	}

	if gittest.Rev(t, wt.Path, "HEAD") != head || gittest.FileHash(t, index) != beforeIndex {
		t.Error("Snapshot moved HEAD or wrote the index")
	}
	if !reflect.DeepEqual(gittest.Status(t, wt.Path), beforeStatus) || !reflect.DeepEqual(gittest.Hashes(t, wt.Path), beforeFiles) {
		t.Error("Snapshot changed the worktree")
	}
	if changed, err := wt.Changed(base); err != nil || !reflect.DeepEqual(changed, want) {
		t.Fatalf("Changed: %v, %v", changed, err)
	}
}

func TestWtSnapshotNothing(t *testing.T) {
	r := wtTaskRepo(t)
	wt, base := wtEnsure(t, r, "tm-1")
	gittest.Write(t, wt.Path, "debug.log", "ignored\n")
	gittest.Write(t, wt.Path, ".bh/tasks/tm-1.yaml", "bh's, not the agent's\n")
	commit, paths, err := wt.Snapshot(base, "park\n")
	if err != nil || commit != "" || len(paths) != 0 {
		t.Fatalf("Snapshot of nothing: %q %v %v", commit, paths, err)
	}
}
