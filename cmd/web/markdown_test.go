package web

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// Code blocks, inline code, lists, tasks, tables, strikethrough and links
// come out as HTML; raw HTML shows as the text it is, and a javascript:
// link goes nowhere.
func TestMarkdown(t *testing.T) {
	got := string(newMarkdown().HTML("Pick one:\n\n```go\nfunc main() {\n\tif x < 1 {}\n}\n```\n\n"+
		"- `a`\n- [docs](https://example.com/x)\n- [x] done\n\n| db | why |\n|:---|--:|\n| Postgres | ~~prod~~ |\n\n"+
		"<script>alert(1)</script>\n\n<img src=x onerror=alert(1)> [bad](javascript:alert(1)) see https://a.b/c\n", "t1"))
	for _, want := range []string{`<pre><code class="language-go">func main() {` + "\n\tif x &lt; 1 {}",
		"<li><code>a</code></li>", `<a href="https://example.com/x">docs</a>`, `<li><input checked="" disabled="" type="checkbox"> done</li>`,
		"<table>", "<th>db</th>", "<td>Postgres</td>", "<td><del>prod</del></td>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>",
		`<p>&lt;img src=x onerror=alert(1)&gt; <a href="">bad</a> see <a href="https://a.b/c">https://a.b/c</a></p>`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	for _, bad := range []string{"<script", "<img", "javascript:", "style="} {
		if strings.Contains(got, bad) {
			t.Errorf("%q got through:\n%s", bad, got)
		}
	}
}

// A text past 64 KiB is cut there, on a character's boundary, with a note
// that says where the whole of it is.
func TestMarkdownCut(t *testing.T) {
	text := "a" + strings.Repeat("é", 130_000) // 260 KB; 64 KiB falls inside an é
	got := string(newMarkdown().HTML(text, "t-7f3a"))
	if !strings.HasPrefix(got, "<p>aééé") || !utf8.ValidString(got) {
		t.Fatalf("the text is not rendered:\n%.200s", got)
	}
	if note := "The text is cut at 64 KiB here: the whole of it is in .bh/tasks/t-7f3a.yaml."; !strings.HasSuffix(got, note+"</p>\n") {
		t.Errorf("no note at the end:\n%s", got[max(0, len(got)-300):])
	}
	if len(got) > maxMarkdown+200 {
		t.Errorf("%d bytes rendered from a 64 KiB cut", len(got))
	}
	if got := newMarkdown().HTML(strings.Repeat("a", maxMarkdown), "t1"); strings.Contains(string(got), "cut") {
		t.Error("a text of exactly 64 KiB was cut")
	}
}

// adversarial are texts of about n bytes that cost markdown parsers the
// square of their length (goldmark's among them, unbounded: a 64 KiB one
// took seconds), after cmark's pathological tests and goldmark#555.
func adversarial(n int) map[string]string {
	rep := func(s string, n int) string { return strings.Repeat(s, n/len(s)+1)[:n] }
	var list, ticks strings.Builder
	for i := 0; list.Len() < n; i++ {
		list.WriteString(strings.Repeat("  ", i) + "* a\n")
	}
	for i := 1; ticks.Len() < n; i++ {
		ticks.WriteString("e" + strings.Repeat("`", i))
	}
	return map[string]string{
		"empty links":            rep("[](", n),
		"unclosed links":         rep("[a](b", n),
		"unclosed <links":        rep("[a](<b", n),
		"emphasis mismatched":    rep("*a_ ", n),
		"emphasis closers":       rep("a_ ", n),
		"emphasis multiple of 3": "a**b" + rep("c* ", n),
		"emphasis nested":        rep("*a **a ", n/2) + "b" + rep(" a** a*", n/2),
		"links and emphasis":     rep("[ a_", n),
		"nested brackets":        rep("[", n/2) + "a" + rep("]", n/2),
		"nested quotes":          rep("> ", n) + "a",
		"nested lists":           list.String()[:n],
		"backtick runs":          ticks.String()[:n],
		"link references":        rep("[a]: b\n", n/2) + rep("[a] ", n/2),
		"wide table, short rows": rep("a|", n/4) + "\n" + rep("-|", n/4) + "\n" + rep("x\n", n/2),
	}
}

// Rendering a text 4 times as long allocates and writes at most about 4
// times as much, whatever the text (a wide table over short rows would
// make cells in the square of its length); the nesting and the markers
// that make goldmark's time quadratic are bounded; and a 260 KB text
// costs what its first 64 KiB do. BenchmarkMarkdown times them.
func TestMarkdownLinear(t *testing.T) {
	m := newMarkdown()
	cost := func(text string) (allocs float64, size int) {
		allocs = testing.AllocsPerRun(1, func() { size = len(m.HTML(text, "t1")) })
		return allocs, size
	}
	small, big, huge := adversarial(16<<10), adversarial(64<<10), adversarial(260_000)
	for name := range small {
		a1, s1 := cost(small[name])
		a4, s4 := cost(big[name])
		if a4 > 5*a1+100 || s4 > 5*s1+1000 {
			t.Errorf("%s: 4 times the text, %.0f times the allocations and %.1f times the output", name, a4/a1, float64(s4)/float64(s1))
		}
		ah, _ := cost(huge[name])
		// 1 % of slack: under -race, sync.Pool drops what it holds at
		// random, and goldmark's pools then allocate a few more times.
		if a64, _ := cost(huge[name][:maxMarkdown]); ah > a64+a64/100+10 {
			t.Errorf("%s: 260 KB cost %.0f allocations, its first 64 KiB %.0f", name, ah, a64)
		}
	}
	if got := strings.Count(string(m.HTML(big["empty links"], "t1")), "<a "); got > maxMarkers {
		t.Errorf("%d links parsed in one paragraph, past %d", got, maxMarkers)
	}
	if got := strings.Count(string(m.HTML(big["nested quotes"], "t1")), "<blockquote>"); got > maxNesting {
		t.Errorf("quotes %d deep, past %d", got, maxNesting)
	}
	if got := strings.Count(string(m.HTML(big["wide table, short rows"], "t1")), "<td></td>"); got > maxPadding {
		t.Errorf("%d empty cells, past %d", got, maxPadding)
	}
}

// A paragraph with more markers than the bound keeps all of its text.
func TestMarkdownBoundKeepsText(t *testing.T) {
	text := strings.Repeat("**b** [l](https://x.y) ", maxMarkers) + "end"
	got := string(newMarkdown().HTML(text, "t1"))
	plain := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(got, "")
	plain = regexp.MustCompile(`\*\*|\[|\]|\(https://x\.y\)`).ReplaceAllString(plain, "")
	if want := strings.Repeat("b l ", maxMarkers) + "end"; strings.TrimSpace(plain) != want {
		t.Errorf("text lost:\n%s", got)
	}
	if !strings.Contains(got, "<strong>b</strong>") || !strings.Contains(got, `<a href="https://x.y">l</a>`) {
		t.Errorf("markers before the bound not rendered:\n%.300s", got)
	}
}

// BenchmarkMarkdown renders each adversarial text at 16 and 64 KiB: the
// time per byte stays about the same.
func BenchmarkMarkdown(b *testing.B) {
	m := newMarkdown()
	for _, n := range []int{16 << 10, 64 << 10} {
		for name, text := range adversarial(n) {
			b.Run(fmt.Sprintf("%s/%dKiB", name, n>>10), func(b *testing.B) {
				b.SetBytes(int64(n))
				var w bytes.Buffer
				for b.Loop() {
					w.WriteString(string(m.HTML(text, "t1")))
					w.Reset()
				}
			})
		}
	}
}
