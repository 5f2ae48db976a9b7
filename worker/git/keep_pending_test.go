package git

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// TestPendingCopiesFoldIntoTheTree: a write is kept at once as a pending
// copy (seen by Lookup, Files and Read), out of git gc's reach, and the
// copies fold into the keep's tree in one write once foldAt gathered, the
// newest of each file winning; a removal forgets.
func TestPendingCopiesFoldIntoTheTree(t *testing.T) {
	dir := gittest.Init(t, map[string]string{"README": "hi\n"})
	k, err := OpenKeep(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Note("tasks/tm-aa.yaml", []byte("one\n")); err != nil {
		t.Fatal(err)
	}
	if err := k.Note("tasks/tm-aa.yaml", []byte("two\n")); err != nil {
		t.Fatal(err)
	}
	if err := k.Note("tasks/tm-bb.yaml", []byte("bee\n")); err != nil {
		t.Fatal(err)
	}
	if err := k.Note("tasks/tm-bb.yaml", nil); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "gc", "--prune=now", "-q") // pending copies are no objects: gc cannot take them
	check := func(when string) {
		t.Helper()
		blob, err := k.Lookup("tasks/tm-aa.yaml")
		if err != nil || blob != BlobOf([]byte("two\n")) {
			t.Fatalf("%s: tm-aa is kept as %q, %v; want the newest copy", when, blob, err)
		}
		if data, err := k.Read(blob); err != nil || string(data) != "two\n" {
			t.Fatalf("%s: read %q, %v", when, data, err)
		}
		files, err := k.Files()
		if err != nil || files["tasks/tm-aa.yaml"] != blob || files["tasks/tm-bb.yaml"] != "" {
			t.Fatalf("%s: files %v, %v; want tm-aa's newest and tm-bb forgotten", when, files, err)
		}
	}
	check("pending")
	if tip, _ := k.r.Ref(KeepRef); tip != "" {
		t.Fatalf("the tree was written before foldAt copies gathered: %s", tip)
	}
	for i := range foldAt {
		if err := k.Note(fmt.Sprintf("tasks/tm-%02d.yaml", i), []byte("n\n")); err != nil {
			t.Fatal(err)
		}
	}
	if tip, _ := k.r.Ref(KeepRef); tip == "" {
		t.Fatal("foldAt pending copies were not folded into the tree")
	}
	if ps, _ := k.pending(); len(ps) >= foldAt-4 {
		t.Errorf("%d pending copies left after the fold", len(ps))
	}
	// The next copy is written in a file the fold left, not a new one.
	spares := map[uint64]bool{}
	ents, _ := os.ReadDir(k.pendingDir())
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && strings.HasPrefix(e.Name(), sparePrefix) {
			spares[fi.Sys().(*syscall.Stat_t).Ino] = true
		}
	}
	if err := k.Note("tasks/tm-cc.yaml", []byte("see\n")); err != nil {
		t.Fatal(err)
	}
	ps, _ := k.pending()
	fi, err := os.Stat(filepath.Join(k.pendingDir(), ps[len(ps)-1].name))
	if err != nil || !spares[fi.Sys().(*syscall.Stat_t).Ino] || string(ps[len(ps)-1].data) != "see\n" {
		t.Errorf("the copy after the fold is %+v (%v), not in a spare of %d", ps[len(ps)-1], err, len(spares))
	}
	tr, err := k.tree()
	if e, ok := treeFile(tr, keptPath("tasks/tm-aa.yaml")); err != nil || !ok || e.Hash.String() != BlobOf([]byte("two\n")) {
		t.Fatalf("the folded tree holds tm-aa as %v (%v); want its newest copy", e, err)
	}
	check("folded")
}

// TestSparesAreNeverLinks: a spare that is a link (symbolic or hard) to a
// file elsewhere is not written through: the file stays as it was.
func TestSparesAreNeverLinks(t *testing.T) {
	dir := gittest.Init(t, map[string]string{"README": "hi\n"})
	k, err := OpenKeep(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Note("tasks/tm-aa.yaml", []byte("one\n")); err != nil { // makes the folder
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	hard := filepath.Join(t.TempDir(), "hard")
	for _, f := range []string{victim, hard} {
		if err := os.WriteFile(f, []byte("the user's\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(victim, filepath.Join(k.pendingDir(), sparePrefix+"sym")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(hard, filepath.Join(k.pendingDir(), sparePrefix+"hard")); err != nil {
		t.Skipf("no hard link here: %v", err)
	}
	for i := range 3 {
		if err := k.Note(fmt.Sprintf("tasks/tm-b%d.yaml", i), []byte("bh's\n")); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{victim, hard} {
		if b, _ := os.ReadFile(f); string(b) != "the user's\n" {
			t.Errorf("%s was written through a spare: %q", filepath.Base(f), b)
		}
	}
	if blob, err := k.Lookup("tasks/tm-b2.yaml"); err != nil || blob != BlobOf([]byte("bh's\n")) {
		t.Errorf("the copies beside the links: %q, %v", blob, err)
	}
}
