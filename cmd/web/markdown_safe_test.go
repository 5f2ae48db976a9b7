package web

import (
	"html"
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

var (
	tagRe  = regexp.MustCompile(`^<(/?)([a-z][a-z0-9]*)((?: [a-z]+="[^"<>]*")*)>`)
	attrRe = regexp.MustCompile(` ([a-z]+)="([^"]*)"`)
	// schemeRe is how a browser reads a URL's scheme, once it has
	// dropped leading controls and spaces and every tab and newline.
	schemeRe = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]*):`)
	allowed  = map[string]bool{"p": true, "br": true, "hr": true, "strong": true, "em": true, "del": true, "code": true,
		"pre": true, "ul": true, "ol": true, "li": true, "a": true, "blockquote": true, "table": true, "thead": true,
		"tbody": true, "tr": true, "th": true, "td": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true,
		"h6": true, "img": true, "input": true}
	void = map[string]bool{"br": true, "hr": true, "img": true, "input": true}
)

// safeURL says whether a browser would run nothing from u: no
// javascript:, vbscript:, file: or data: other than an image's.
func safeURL(u string) bool {
	u = strings.TrimLeft(html.UnescapeString(u), "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"+
		"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	u = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(u)
	s := schemeRe.FindStringSubmatch(u)
	if s == nil {
		return true
	}
	switch strings.ToLower(s[1]) {
	case "javascript", "vbscript", "file":
		return false
	case "data":
		return regexp.MustCompile(`^(?i)data:image/(png|gif|jpeg|webp)`).MatchString(u)
	}
	return true
}

// unsafeHTML says what is wrong with out as the rendering of some text,
// or "": every < starts a listed tag, tags nest, and the only attributes
// are a link's href and an image's src (neither of them running
// anything), a title, an image's alt, a code block's language class, an
// ordered list's start and a task's checkbox.
func unsafeHTML(out string) string {
	var open []string
	for i := strings.IndexByte(out, '<'); i >= 0; i = strings.IndexByte(out, '<') {
		m := tagRe.FindStringSubmatch(out[i:])
		if m == nil {
			return "a < that starts no tag: " + out[i:min(len(out), i+40)]
		}
		if strings.ContainsAny(out[:i], ">") {
			return "a stray >"
		}
		closing, name, attrs := m[1] == "/", m[2], m[3]
		if !allowed[name] || strings.Contains(strings.ToLower(m[0]), " on") {
			return "tag " + m[0]
		}
		for _, a := range attrRe.FindAllStringSubmatch(attrs, -1) {
			v := html.UnescapeString(a[2])
			switch k := name + " " + a[1]; {
			case closing:
				return "attributes on " + m[0]
			case k == "a href" || k == "img src":
				if !safeURL(a[2]) {
					return "address in " + m[0]
				}
			case k == "img alt", k == "a title", k == "img title", k == "code class" && strings.HasPrefix(v, "language-"),
				k == "ol start" && regexp.MustCompile(`^[0-9]+$`).MatchString(v),
				k == "input type" && v == "checkbox", k == "input checked" && v == "", k == "input disabled" && v == "":
			default:
				return "attribute in " + m[0]
			}
		}
		switch {
		case void[name]:
		case !closing:
			open = append(open, name)
		case len(open) == 0 || open[len(open)-1] != name:
			return "unbalanced " + m[0]
		default:
			open = open[:len(open)-1]
		}
		out = out[i+len(m[0]):]
	}
	if strings.ContainsAny(out, ">") || len(open) > 0 {
		return "a stray > or an unclosed tag"
	}
	return ""
}

var xss = []string{
	"<script>alert(1)</script>", "<img src=x onerror=alert(1)>", `<a href="javascript:alert(1)">x</a>`,
	"[x](javascript:alert(1))", "[x](JaVaScRiPt:alert(1))", "[x]( javascript:alert(1))", "[x](java\tscript:alert(1))",
	"[x](<javascript:alert(1)>)", "[x](&#106;avascript:alert(1))", "[x](javascript&colon;alert(1))",
	`[x](javascript\:alert(1))`, `[x](\javascript:alert(1))`, "[x](data:text/html;base64,PHNjcmlwdD4=)",
	"[x](vbscript:msgbox(1))", "![x](javascript:alert(1))", "<javascript:alert(1)>", "[x](\x01javascript:alert(1))",
	`[x](https://a.com" onmouseover="alert(1))`, `[x](https://a.com"onmouseover="alert(1))`, `<https://a.com/"onmouseover=alert(1)>`,
	"```\"><script>alert(1)</script>\nx\n```", "```go\" onload=\"x\ny\n```", "~~~ js onclick=x\ny\n~~~",
	"| <script> | x |\n|---|---|\n| <b onclick=x> | [y](javascript:1) |", "**<svg onload=alert(1)>**",
	"<!-- x --><iframe src=javascript:alert(1)>", "[<script>](https://x)", "> <script>\n> - <style>", "# <script> #",
	"~~<script>~~", "`<script>`", "[[x](javascript:1)](https://a)", "https://a.com/<script>alert(1)</script>",
	"[x](https://a.com/\"><script>)", "- [x](javascript:1)\n  > <img onerror=1>", "<<script>script>", "&lt;script&gt;",
	"[x](//evil.com) [y](#top) [z](mailto:a@b.c)", "[x](%6Aavascript:alert(1))", "[x]( \x0bjavascript:alert(1))",
	"[x]: javascript:alert(1)\n\n[y][x]", "<vbscript:msgbox(1)>", "[x](file:///etc/passwd)", "![x](data:text/html,<script>)",
	"- [ ] <script>\n- [x] [y](javascript:1)", "www.a.com/\"onmouseover=alert(1)", "1. x\n2. <script>",
}

func TestMarkdownXSS(t *testing.T) {
	m := newMarkdown()
	for _, in := range xss {
		out := string(m.HTML(in, "t1"))
		if why := unsafeHTML(out); why != "" {
			t.Errorf("%q: %s\n%s", in, why, out)
		}
		if regexp.MustCompile(`(?i)(href|src)="(javascript|vbscript|file|data):`).MatchString(out) {
			t.Errorf("%q made a dangerous address:\n%s", in, out)
		}
	}
}

// Text built at random from markdown's markers and HTML's pieces always
// renders safe.
func TestMarkdownRandomSafe(t *testing.T) {
	pieces := []string{"*", "**", "_", "__", "~~", "`", "```", "~~~", "[", "]", "(", ")", "<", ">", "\"", "'", "!", "\\",
		"|", "|---|", "- ", "1. ", "> ", "# ", "\n", "\n\n", "  ", "\t", "x", "go", "javascript:", "https://a.b/",
		"mailto:", "<script>", "onerror=", "&amp;", "&#", "\x00", "é", ":", "  - ", "---"}
	rnd := rand.New(rand.NewSource(1))
	m := newMarkdown()
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		var b strings.Builder
		for range 1 + rnd.Intn(40) {
			b.WriteString(pieces[rnd.Intn(len(pieces))])
		}
		if why := unsafeHTML(string(m.HTML(b.String(), "t1"))); why != "" {
			t.Fatalf("%q: %s\n%s", b.String(), why, m.HTML(b.String(), "t1"))
		}
	}
}

func FuzzMarkdown(f *testing.F) {
	for _, in := range append(xss, "Pick **one**:\n\n- `a`\n- [docs](https://example.com/x)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n") {
		f.Add(in)
	}
	m := newMarkdown()
	f.Fuzz(func(t *testing.T, in string) {
		if why := unsafeHTML(string(m.HTML(in, "t1"))); why != "" {
			t.Fatalf("%q: %s\n%s", in, why, m.HTML(in, "t1"))
		}
	})
}
