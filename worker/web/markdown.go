package web

import (
	"html/template"
	"strings"
)

// markdown renders an agent's text (a question, its context, a summary) as
// the GitHub-flavoured markdown agents write: paragraphs, headings, fenced
// code, lists, tables, quotes, emphasis, code, links. It is safe by
// construction rather than by sanitizing: every piece of the text is
// escaped, the only tags are the few it writes itself, raw HTML is shown as
// text, and a link is made only for http, https, mailto or a relative URL.
// bh's own, and not goldmark and bluemonday, because every bh process runs
// the init of every package it links, and theirs cost milliseconds per
// command for a page only `bh serve` shows.
type markdown struct{}

func newMarkdown() *markdown { return &markdown{} }

// maxDepth bounds nesting (quotes in lists, emphasis in links) so that
// hostile text cannot make the renderer recurse without end; markers
// deeper than that are shown as text.
const maxDepth = 16

// HTML is text rendered.
func (*markdown) HTML(text string) template.HTML {
	var b strings.Builder
	text = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\x00", "\uFFFD").Replace(text)
	blocks(&b, strings.Split(text, "\n"), false, 0)
	return template.HTML(b.String())
}

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;")

func esc(s string) string { return escaper.Replace(s) }

// blocks renders lines as block after block; tight (a list's items without
// blank lines between them) leaves paragraphs unwrapped.
func blocks(b *strings.Builder, lines []string, tight bool, depth int) {
	for i := 0; i < len(lines); {
		line := lines[i]
		ind, rest := indent(line)
		switch {
		case rest == "":
			i++
		case ind < 4 && fence(rest) > 0:
			i = code(b, lines, i)
		case ind < 4 && rule(rest):
			b.WriteString("<hr>\n")
			i++
		case ind < 4 && heading(rest) > 0:
			n := heading(rest)
			h := strings.TrimSpace(rest[n:])
			if t := strings.TrimRight(h, "#"); t == "" || strings.HasSuffix(t, " ") {
				h = strings.TrimSpace(t)
			}
			tag := "h" + string(rune('0'+n))
			b.WriteString("<" + tag + ">")
			inlineHTML(b, h, depth)
			b.WriteString("</" + tag + ">\n")
			i++
		case ind < 4 && rest[0] == '>' && depth < maxDepth:
			i = quote(b, lines, i, depth)
		case depth < maxDepth && isItem(line):
			i = list(b, lines, i, depth)
		case table(lines, i) > 0:
			i = writeTable(b, lines, i, depth)
		default:
			i = para(b, lines, i, tight, depth)
		}
	}
}

// indent is the line's leading white space in columns (a tab to the next
// multiple of 4) and what follows it.
func indent(line string) (int, string) {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n, line[i:]
		}
	}
	return n, ""
}

func blank(line string) bool { _, rest := indent(line); return rest == "" }

// dedent removes up to n columns of leading white space.
func dedent(line string, n int) string {
	col := 0
	for i := 0; i < len(line); i++ {
		if col >= n || (line[i] != ' ' && line[i] != '\t') {
			return line[i:]
		}
		if line[i] == '\t' {
			col += 4 - col%4
		} else {
			col++
		}
	}
	return ""
}

// interrupts says whether line i starts a block that ends a paragraph.
func interrupts(lines []string, i int) bool {
	ind, rest := indent(lines[i])
	if rest == "" || ind >= 4 {
		return false
	}
	if fence(rest) > 0 || rule(rest) || heading(rest) > 0 || rest[0] == '>' || table(lines, i) > 0 {
		return true
	}
	m, ok := item(lines[i])
	return ok && strings.TrimSpace(m.content) != "" && (!m.ordered || m.num == 1)
}

func para(b *strings.Builder, lines []string, i int, tight bool, depth int) int {
	var p []string
	for ; i < len(lines) && !blank(lines[i]) && (len(p) == 0 || !interrupts(lines, i)); i++ {
		l := strings.TrimLeft(lines[i], " \t")
		if t := strings.TrimRight(l, " \t"); len(l)-len(t) >= 2 {
			t += `\` // two trailing spaces: a hard break, as a backslash is
			l = t
		}
		p = append(p, strings.TrimRight(l, " \t"))
	}
	text := strings.TrimSuffix(strings.Join(p, "\n"), `\`)
	if tight {
		inlineHTML(b, text, depth)
		b.WriteString("\n")
		return i
	}
	b.WriteString("<p>")
	inlineHTML(b, text, depth)
	b.WriteString("</p>\n")
	return i
}

// rule says whether rest is a thematic break: three or more of one of
// - * _ and nothing else but spaces.
func rule(rest string) bool {
	c, n := rest[0], 0
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// heading is the level of an ATX heading ("## x"), or 0.
func heading(rest string) int {
	n := 0
	for n < len(rest) && rest[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(rest) && rest[n] != ' ' && rest[n] != '\t') {
		return 0
	}
	return n
}

func quote(b *strings.Builder, lines []string, i int, depth int) int {
	var q []string
	for ; i < len(lines); i++ {
		ind, rest := indent(lines[i])
		if ind < 4 && rest != "" && rest[0] == '>' {
			rest = rest[1:]
			if rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
				rest = rest[1:]
			}
			q = append(q, rest)
			continue
		}
		// a lazy line carries on the quote's paragraph
		if rest == "" || len(q) == 0 || strings.TrimSpace(q[len(q)-1]) == "" || interrupts(lines, i) || isItem(lines[i]) {
			break
		}
		q = append(q, lines[i])
	}
	b.WriteString("<blockquote>\n")
	blocks(b, q, false, depth+1)
	b.WriteString("</blockquote>\n")
	return i
}
