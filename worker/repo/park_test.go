package repo

import (
	"strings"
	"testing"
)

const parkRef = "refs/bh/parked/tm-abc"

func TestParkSavesWorkThenRemovesIt(t *testing.T) {
	r := newRepo(t)
	userMess(t, r)
	wantStatus := statusT(t, r)
	b := baselineT(t, r)
	wantFiles := treeFiles(t, r)
	agentMess(t, r)
	removeT(t, r, "build/agent.o")
	changed := changedT(t, r, b)
	head, _ := r.Head()

	commit, err := r.Park(parkRef, b, changed, "bh: park tm-abc")
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "files after park", treeFiles(t, r), wantFiles)
	equalT(t, "status after park", statusT(t, r), wantStatus)
	equalT(t, "ref", strings.TrimSpace(gitT(t, r.Root, "rev-parse", parkRef)), commit)
	gitT(t, r.Root, "fsck", "--strict", "--no-dangling")

	info, err := r.Parked(parkRef)
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "base", info.Base, head)
	equalT(t, "parked paths", info.Paths, changed)
	// the snapshot holds the agent's content, and the deletions
	equalT(t, "clean.txt", gitT(t, r.Root, "show", commit+":clean.txt"), "clean v2 by agent\n")
	equalT(t, "user.txt", gitT(t, r.Root, "show", commit+":user.txt"), "user v2 unstaged\nplus agent\n")
	equalT(t, "new file", gitT(t, r.Root, "show", commit+":deep/new/dirs/file.go"), "package dirs\n")
	if out := gitT(t, r.Root, "ls-tree", "-r", "--name-only", commit); strings.Contains(out, "x.c") ||
		strings.Contains(out, "todo.txt") || strings.Contains(out, "move me") {
		t.Errorf("deleted files still in the snapshot:\n%s", out)
	}
	// the diff is the agent's work only, not the user's own edits
	diff, err := r.ParkedDiff(parkRef, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(diff, "+plus agent") || strings.Contains(diff, "+user v2 unstaged") {
		t.Errorf("parked diff:\n%s", diff)
	}
	stat, _ := r.ParkedDiff(parkRef, true)
	if !strings.Contains(stat, "files changed") {
		t.Errorf("stat:\n%s", stat)
	}
	if _, err := r.Park(parkRef, b, []string{"clean.txt"}, "again"); err == nil {
		t.Error("parking over an existing ref succeeded")
	}
}

func TestParkedMissing(t *testing.T) {
	r := newRepo(t)
	info, err := r.Parked("refs/bh/parked/none")
	if info != nil || err != nil {
		t.Fatalf("got %v, %v", info, err)
	}
	if _, err := r.Park("refs/heads/main", &Baseline{}, []string{"x"}, "m"); err == nil {
		t.Fatal("parked outside refs/bh/")
	}
}

func TestParkUnbornHead(t *testing.T) {
	r := newRepo(t)
	writeT(t, r, "mine.txt", "user\n")
	b := baselineT(t, r)
	writeT(t, r, "agent.go", "package a\n")
	changed := changedT(t, r, b)
	if _, err := r.Park(parkRef, b, changed, "park"); err != nil {
		t.Fatal(err)
	}
	if exists(r, "agent.go") {
		t.Fatal("agent.go survived parking")
	}
	info, _ := r.Parked(parkRef)
	equalT(t, "base", info.Base, "")
	equalT(t, "paths", info.Paths, []string{"agent.go"})
	gitT(t, r.Root, "fsck", "--strict")
	paths, err := r.Unpark(parkRef)
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "paths", paths, []string{"agent.go"})
	equalT(t, "agent.go", readT(t, r, "agent.go"), "package a\n")
	equalT(t, "mine.txt", readT(t, r, "mine.txt"), "user\n")
}

// DiffStat counts the agent's new untracked files and not the user's edits.
func TestDiffStat(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"f.txt": "1\n2\n3\n"})
	writeT(t, r, "f.txt", "1 user\n2\n3\n")
	b := baselineT(t, r)
	writeT(t, r, "f.txt", "1 user\n2\n3\n4 agent\n")
	writeT(t, r, "brand new.txt", "a\nb\n")
	changed := changedT(t, r, b)
	stat, err := r.DiffStat(b, changed)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stat, "brand new.txt | 2 ++") || !strings.Contains(stat, "f.txt         | 1 +") ||
		!strings.Contains(stat, "2 files changed, 3 insertions(+)") {
		t.Fatalf("stat:\n%s", stat)
	}
	equalT(t, "tree untouched", readT(t, r, "f.txt"), "1 user\n2\n3\n4 agent\n")
}
