package diffview

import (
	"html/template"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/git"
)

// Each line of code has its numbers in the old and the new file, and its
// tokens coloured by the lexer the file's name picks; text is escaped,
// an unknown kind of file is plain.
func TestLines(t *testing.T) {
	d := "diff --git a/main.go b/main.go\n--- a/main.go\n+++ b/main.go\n@@ -3,3 +3,3 @@ package main\n" +
		" // keep\n-func old() {}\n+func tidy() { _ = \"<b>\" }\n \n"
	files, _ := git.DiffFiles(d + "diff --git a/notes.zz b/notes.zz\n--- a/notes.zz\n+++ b/notes.zz\n@@ -1 +1 @@\n-a<b\n+a<c\n")
	got := Lines(files[0])
	type want struct {
		class    string
		old, new int
		sign     string
		code     template.HTML
	}
	for i, w := range []want{
		{"hunk", 0, 0, "", "@@ -3,3 +3,3 @@ package main"},
		{"ctx", 3, 3, " ", `<span class="c1">// keep</span>`},
		{"del", 4, 0, "−", `<span class="kd">func</span> <span class="nf">old</span><span class="p">()</span> <span class="p">{}</span>`},
		{"add", 0, 4, "+", `<span class="kd">func</span> <span class="nf">tidy</span><span class="p">()</span> <span class="p">{</span> <span class="nx">_</span> <span class="p">=</span> <span class="s">&#34;&lt;b&gt;&#34;</span> <span class="p">}</span>`},
		{"ctx", 5, 5, " ", ""},
	} {
		l := got[len(got)-5+i]
		if l.Class != w.class || l.Old != w.old || l.New != w.new || l.Sign != w.sign || l.Code != w.code {
			t.Errorf("line %d: %+v, want %+v", i, l, w)
		}
	}
	plain := Lines(files[1])
	if l := plain[len(plain)-1]; l.Code != "a&lt;c" || l.New != 1 || l.Sign != "+" {
		t.Errorf("a file no lexer knows: %+v", l)
	}
}

// A line longer than maxLine is shown plain, and so is its file: an
// agent's diff costs chroma no more than maxColoured bytes.
func TestLinesBounded(t *testing.T) {
	long := strings.Repeat("x", maxLine+1)
	files, _ := git.DiffFiles("diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -0,0 +1,2 @@\n+var a = 1\n+" + long + "\n")
	for _, l := range Lines(files[0]) {
		if strings.Contains(string(l.Code), "<span") {
			t.Errorf("coloured: %.80s", l.Code)
		}
	}
}

// The colours come for light and dark schemes, in chroma's classes.
func TestCSS(t *testing.T) {
	css, err := CSS()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".chroma .kd {", "@media (prefers-color-scheme: dark) {"} {
		if !strings.Contains(string(css), want) {
			t.Errorf("the stylesheet lacks %q", want)
		}
	}
}
