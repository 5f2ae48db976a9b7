package web

import "strings"

// fence is the length of the code fence (``` or ~~~) rest opens, or 0.
func fence(rest string) int {
	c := rest[0]
	if c != '`' && c != '~' {
		return 0
	}
	n := 0
	for n < len(rest) && rest[n] == c {
		n++
	}
	if n < 3 || (c == '`' && strings.Contains(rest[n:], "`")) {
		return 0
	}
	return n
}

// code writes the fenced block opened at line i, to its closing fence or
// the end, and returns the line after it. The fence's language, if it is
// a plain word, becomes the code's class.
func code(b *strings.Builder, lines []string, i int) int {
	ind, rest := indent(lines[i])
	c, n := rest[0], fence(rest)
	b.WriteString("<pre><code")
	if f := strings.Fields(rest[n:]); len(f) > 0 && word(f[0]) {
		b.WriteString(` class="language-` + f[0] + `"`)
	}
	b.WriteString(">")
	for i++; i < len(lines); i++ {
		in, r := indent(lines[i])
		if in < 4 && r != "" && r[0] == c && fence(r) >= n && strings.TrimSpace(strings.TrimLeft(r, string(c))) == "" {
			i++
			break
		}
		b.WriteString(esc(dedent(lines[i], ind)) + "\n")
	}
	b.WriteString("</code></pre>\n")
	return i
}

// word says whether s matches ^[\w+-]+$.
func word(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '+' || r == '-') {
			return false
		}
	}
	return s != ""
}

// marker is a list item's start: its kind, number, the column its content
// starts at, and the content on its first line.
type marker struct {
	ordered bool
	num     int
	col     int
	content string
}

func isItem(line string) bool { _, ok := item(line); return ok }

func item(line string) (marker, bool) {
	ind, rest := indent(line)
	var m marker
	if ind >= 4 || rest == "" {
		return m, false
	}
	n := 0
	switch c := rest[0]; {
	case c == '-' || c == '*' || c == '+':
		n = 1
	default:
		for n < len(rest) && n < 9 && rest[n] >= '0' && rest[n] <= '9' {
			m.num = m.num*10 + int(rest[n]-'0')
			n++
		}
		if n == 0 || n == len(rest) || (rest[n] != '.' && rest[n] != ')') {
			return m, false
		}
		m.ordered = true
		n++
	}
	after := rest[n:]
	if after != "" && after[0] != ' ' && after[0] != '\t' {
		return m, false
	}
	sp, content := indent(after)
	if content == "" || sp > 4 {
		sp = 1
		content = dedent(after, 1)
	}
	m.col, m.content = ind+n+sp, content
	return m, true
}

// list writes the list whose first item is at line i: its items' lines
// (those indented to the content, and lazy ones carrying on a paragraph)
// rendered as blocks of their own.
func list(b *strings.Builder, lines []string, i int, depth int) int {
	first, _ := item(lines[i])
	var items [][]string
	loose := false
	for i < len(lines) {
		m, ok := item(lines[i])
		if _, rest := indent(lines[i]); !ok || m.ordered != first.ordered || len(items) > 0 && rule(rest) {
			break
		}
		body := []string{m.content}
		for i++; i < len(lines); i++ {
			ind, rest := indent(lines[i])
			switch {
			case rest == "":
				body = append(body, "")
				continue
			case ind >= m.col:
				body = append(body, dedent(lines[i], m.col))
				continue
			case body[len(body)-1] != "" && !interrupts(lines, i) && !isItem(lines[i]):
				body = append(body, rest)
				continue
			}
			break
		}
		end := len(body)
		for end > 0 && body[end-1] == "" {
			end--
		}
		if end < len(body) && i < len(lines) { // a blank line between two items
			next, ok := item(lines[i])
			loose = loose || ok && next.ordered == first.ordered
		}
		for _, l := range body[:end] {
			loose = loose || l == ""
		}
		items = append(items, body[:end])
	}
	tag := "ul"
	if first.ordered {
		tag = "ol"
	}
	b.WriteString("<" + tag + ">\n")
	for _, body := range items {
		var in strings.Builder
		blocks(&in, body, !loose, depth+1)
		if loose {
			b.WriteString("<li>\n" + in.String() + "</li>\n")
		} else {
			b.WriteString("<li>" + strings.TrimSuffix(in.String(), "\n") + "</li>\n")
		}
	}
	b.WriteString("</" + tag + ">\n")
	return i
}
