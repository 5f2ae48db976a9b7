package repo

import (
	"errors"
	"strings"
	"testing"
)

const tenLines = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n"

// parkEdit commits tenLines to f.txt, has the agent change line 2 and add a
// file, and parks that work.
func parkEdit(t *testing.T, r *Repo) *Baseline {
	t.Helper()
	commitFiles(t, r, map[string]string{"f.txt": tenLines, "other.txt": "o\n"})
	writeT(t, r, "user.txt", "untracked, user\n")
	b := baselineT(t, r)
	writeT(t, r, "f.txt", strings.Replace(tenLines, "l2\n", "l2 agent\n", 1))
	writeT(t, r, "src/added.go", "package src\n")
	removeT(t, r, "other.txt")
	changed := changedT(t, r, b)
	if _, err := r.Park(parkRef, b, changed, "park"); err != nil {
		t.Fatal(err)
	}
	equalT(t, "f.txt parked away", readT(t, r, "f.txt"), tenLines)
	return b
}

func TestUnparkSameHead(t *testing.T) {
	r := newRepo(t)
	parkEdit(t, r)
	paths, err := r.Unpark(parkRef)
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "paths", paths, []string{"f.txt", "other.txt", "src/added.go"})
	equalT(t, "f.txt", readT(t, r, "f.txt"), strings.Replace(tenLines, "l2\n", "l2 agent\n", 1))
	equalT(t, "added", readT(t, r, "src/added.go"), "package src\n")
	if exists(r, "other.txt") {
		t.Error("other.txt came back")
	}
	// the working tree only: nothing is staged
	equalT(t, "index", gitT(t, r.Root, "diff", "--cached", "--name-only"), "")
	if info, _ := r.Parked(parkRef); info != nil {
		t.Error("ref still there after unpark")
	}
}

// The park keeps the user's own edits apart: unparking a file the user had
// dirty brings back user and agent edits, and rollback keeps only the user's.
func TestUnparkUserDirtyFile(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"f.txt": tenLines})
	userVersion := strings.Replace(tenLines, "l9\n", "l9 user\n", 1)
	writeT(t, r, "f.txt", userVersion)
	b := baselineT(t, r)
	both := strings.Replace(userVersion, "l2\n", "l2 agent\n", 1)
	writeT(t, r, "f.txt", both)
	if _, err := r.Park(parkRef, b, []string{"f.txt"}, "park"); err != nil {
		t.Fatal(err)
	}
	equalT(t, "after park", readT(t, r, "f.txt"), userVersion)
	if _, err := r.Unpark(parkRef); err != nil {
		t.Fatal(err)
	}
	equalT(t, "after unpark", readT(t, r, "f.txt"), both)
}

func TestUnparkMergesAfterHeadMoved(t *testing.T) {
	r := newRepo(t)
	parkEdit(t, r)
	writeT(t, r, "f.txt", strings.Replace(tenLines, "l9\n", "l9 upstream\n", 1))
	gitT(t, r.Root, "commit", "-q", "-am", "someone else")
	if _, err := r.Unpark(parkRef); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(strings.Replace(tenLines, "l9\n", "l9 upstream\n", 1), "l2\n", "l2 agent\n", 1)
	equalT(t, "merged", readT(t, r, "f.txt"), want)
	equalT(t, "added", readT(t, r, "src/added.go"), "package src\n")
}

func TestUnparkConflictChangesNothing(t *testing.T) {
	r := newRepo(t)
	parkEdit(t, r)
	writeT(t, r, "f.txt", strings.Replace(tenLines, "l2\n", "l2 upstream\n", 1))
	gitT(t, r.Root, "commit", "-q", "-am", "conflicting")
	writeT(t, r, "other.txt", "the user brought it back\n")
	before := treeFiles(t, r)
	beforeStatus := statusT(t, r)
	_, err := r.Unpark(parkRef)
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v", err)
	}
	equalT(t, "conflicts", ce.Paths, []string{"f.txt", "other.txt"})
	equalT(t, "tree untouched", treeFiles(t, r), before)
	equalT(t, "status untouched", statusT(t, r), beforeStatus)
	if info, _ := r.Parked(parkRef); info == nil {
		t.Fatal("ref gone after a conflict")
	}
}

func TestUnparkNothing(t *testing.T) {
	r := newRepo(t)
	if _, err := r.Unpark("refs/bh/parked/none"); err == nil {
		t.Fatal("unparked nothing")
	}
}

// Edits the user made while the work was parked are merged, not lost.
func TestUnparkMergesUserEditsSameHead(t *testing.T) {
	r := newRepo(t)
	parkEdit(t, r)
	writeT(t, r, "f.txt", strings.Replace(tenLines, "l9\n", "l9 user meanwhile\n", 1))
	if _, err := r.Unpark(parkRef); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(strings.Replace(tenLines, "l9\n", "l9 user meanwhile\n", 1), "l2\n", "l2 agent\n", 1)
	equalT(t, "merged", readT(t, r, "f.txt"), want)
}
