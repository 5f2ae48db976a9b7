package gfm

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// TestAsGoldmarks: what these extensions make of a text is what
// goldmark's own make of it (tables unaligned, as the inbox asks), for
// texts written to reach each of their branches and for texts strung
// at random from the pieces that matter to them.
func TestAsGoldmarks(t *testing.T) {
	ours := goldmark.New(goldmark.WithExtensions(Extensions))
	theirs := goldmark.New(goldmark.WithExtensions(
		extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignNone)),
		extension.Strikethrough, extension.Linkify, extension.TaskList))
	texts := []string{
		"| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 |\n| 4 | 5 | 6 |",
		"text before\n| a |\n| --- |\n| `x \\| y` |\n\nafter",
		"a | b\n-- | --\nc | d",
		"| a | b |\n| - |\n| c |",
		"| a |\n|:--:|",
		"    | a |\n    |---|",
		"| a |\n| -x- |",
		"~one~ ~~two~~ ~~~three~~~ a~b~c",
		"- [ ] open\n- [x] done\n- [X] Done\n- [y] not\n- text [ ] not first",
		"1. [ ]\n2. [x]  spaced",
		"see http://example.com/a_b?c=d. and https://x.y.z/(p)) or ftp://f.org:21/x",
		"www.example.com/path, (www.a.bc) *www.x.io* _http://u.vw_ ~https://s.tt~",
		"mail a.b@c.de or x@y, a@b.c. and -a@b.cd- a@b.cd_x",
		"http://a.b/c&amp; http://a.b/c&x; http://a.b/&; [http://in.link](http://x.y)",
		"https://x.yz:8080/p?q=1#frag! http://nodot",
		"a\n---", "a\n---\n", "| a |\n--- \n| b |", "> | a | b |\n> |---|---|\n> | c | d |", "- | a |\n  |---|\n  | b |",
	}
	pieces := strings.Fields("| || --- :-- --: :-: - ~ ~~ ~~~ [ ] [x] [X] ] ( ) * _ ` \\| \\ . , ? ! ; & &amp; " +
		"http:// https:// ftp:// www. example.com a@b.cd x.y word 1.")
	pieces = append(pieces, "\n", "\n", "\n", " ", " ", " ", "- ", "1. ", "    ", "\n\n", "> ", "# ", "\t", "\r\n")
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(30) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	var all strings.Builder
	for _, text := range texts {
		var got, want bytes.Buffer
		if err := ours.Convert([]byte(text), &got); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if err := theirs.Convert([]byte(text), &want); err != nil {
			t.Fatalf("%q: goldmark's: %v", text, err)
		}
		if got.String() != want.String() {
			t.Errorf("%q:\n%s\ngoldmark's extensions make:\n%s", text, got.String(), want.String())
		}
		all.WriteString(got.String())
	}
	for _, made := range []string{"<table>", "<th>", "<td><code>x | y</code></td>", "<del>", `<input checked="" disabled="" type="checkbox">`,
		`<input disabled="" type="checkbox">`, `<a href="http://example.com/a_b?c=d">`, `<a href="http://www.example.com/path">`, `<a href="mailto:a.b@c.de">`} {
		if !strings.Contains(all.String(), made) {
			t.Errorf("no text made %s", made)
		}
	}
}
