package git

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

func TestDiffLines(t *testing.T) {
	got, cut := diffLines("diff --git a/x b/x\nindex 1..2\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n c\n", maxDiff)
	var classes []string
	for _, l := range got {
		classes = append(classes, l.Class)
	}
	if strings.Join(classes, " ") != "meta meta meta meta hunk del add ctx" || cut {
		t.Errorf("classes %v, cut %v", classes, cut)
	}
	if _, cut := diffLines(strings.Repeat("+x\n", maxDiff+1), maxDiff); !cut {
		t.Error("a long diff is not cut")
	}
}

// A diff's files are named by their paths as they are, whatever git
// quotes: UTF-8, a space, " b/" inside a path, a quote, a tab, a binary
// file, a deleted and a renamed one; the lines a comment may go on are
// those of the new file that the diff shows.
func TestDiffFilesNamesThePaths(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"gone.txt": "gone for good\n", "old name.txt": "same\nlines\nhere\n", "big.md": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"})
	base := strings.TrimSpace(gittest.Git(t, r.Root, "rev-parse", "HEAD"))
	gittest.Git(t, r.Root, "rm", "-q", "gone.txt")
	gittest.Git(t, r.Root, "mv", "old name.txt", "new name.txt")
	commitFiles(t, r, map[string]string{"docs/café.md": "one\ntwo\n", "a b/c d.txt": "x\n", `q"uote.md`: "y\n",
		"tab\there.md": "z\n", "ünï.bin": "\x00\x01", "big.md": "1\n2\n3\n4\n5\n6\n7\nEIGHT\n9\n10\n"})
	head := strings.TrimSpace(gittest.Git(t, r.Root, "rev-parse", "HEAD"))
	d, err := r.Diff(base, head, false)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := DiffFiles(d)
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	equalT(t, "names", names, []string{"a b/c d.txt", "big.md", "docs/café.md", "gone.txt", "new name.txt", `q"uote.md`, "tab\there.md", "ünï.bin"})
	lines := Commentable(d)
	equalT(t, "big.md's lines", lines["big.md"], []int{5, 6, 7, 8, 9, 10})
	equalT(t, "café's lines", lines["docs/café.md"], []int{1, 2})
	if _, ok := lines["gone.txt"]; ok {
		t.Errorf("a deleted file has lines to comment on: %v", lines["gone.txt"])
	}
	// As git writes them with core.quotepath on (its default).
	for h, want := range map[string]string{
		`diff --git "a/docs/caf\303\251.md" "b/docs/caf\303\251.md"`: "docs/café.md",
		`diff --git a/x "b/z\"q"`:                                    `z"q`, // unquoted a/, quoted b/
		"diff --git a/a b/c b/a b/c":                                 "a b/c",
		"diff --git a/old b/new":                                     "new",
	} {
		if got := headerPath(h); got != want {
			t.Errorf("headerPath(%s) = %q, want %q", h, got, want)
		}
	}
	if got := diffPath(`"b/docs/caf\303\251.md"`); got != "b/docs/café.md" {
		t.Errorf("diffPath: %q", got)
	}
}
