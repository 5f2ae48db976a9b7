package web

import (
	"strings"
	"testing"
)

// Code blocks, inline code, lists, tables and links come out as HTML; a
// script, an event handler or a javascript: link never does (raw HTML is
// shown as text).
func TestMarkdown(t *testing.T) {
	m := newMarkdown()
	got := string(m.HTML("Pick one:\n\n```go\nfunc main() {\n\tif x < 1 {}\n}\n```\n\n" +
		"- `a`\n- [docs](https://example.com/x)\n\n| db | why |\n|---|---|\n| Postgres | prod |\n\n" +
		"<script>alert(1)</script>\n\n<img src=x onerror=alert(1)> [bad](javascript:alert(1))\n"))
	for _, want := range []string{`<pre><code class="language-go">func main() {` + "\n\tif x &lt; 1 {}",
		"<li><code>a</code></li>", `<a href="https://example.com/x" rel="nofollow">docs</a>`,
		"<table>", "<th>db</th>", "<td>Postgres</td>", "<p>&lt;img src=x onerror=alert(1)&gt; bad</p>"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	for _, bad := range []string{"<script", "<img", "javascript:"} {
		if strings.Contains(got, bad) {
			t.Errorf("%q got through:\n%s", bad, got)
		}
	}
}
