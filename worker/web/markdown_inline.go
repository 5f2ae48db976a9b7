package web

import "strings"

// inline renders a paragraph's text: code spans, emphasis, strikethrough,
// links and bare URLs, backslash escapes and hard breaks; everything else
// is escaped text.
type inline struct {
	b      *strings.Builder
	inLink bool // no link inside a link's text
}

// noClose is, for each emphasis marker and run length, where a search for
// its closer found none (0: none has failed), so that text full of
// unclosed markers is not searched again and again to its end.
type noClose map[[2]int]int

func inlineHTML(b *strings.Builder, s string, depth int) { (&inline{b: b}).render(s, depth) }

func (r *inline) render(s string, depth int) {
	start, fail := 0, noClose{}
	for i := 0; i < len(s); {
		if !strings.ContainsRune("\\`*_~[!<h", rune(s[i])) {
			i++
			continue
		}
		r.b.WriteString(esc(s[start:i]))
		if j := r.special(s, i, depth, fail); j > i {
			i, start = j, j
		} else {
			start = i
			i++
		}
	}
	r.b.WriteString(esc(s[start:]))
}

// special writes what starts at s[i] and returns where it ends, or
// returns i, having written nothing, if s[i] is plain text there.
func (r *inline) special(s string, i, depth int, fail noClose) int {
	switch c := s[i]; c {
	case '\\':
		if i+1 < len(s) && s[i+1] == '\n' {
			r.b.WriteString("<br>\n")
			return i + 2
		}
		if i+1 < len(s) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[i+1]) >= 0 {
			r.b.WriteString(esc(s[i+1 : i+2]))
			return i + 2
		}
	case '`':
		n := run(s, i)
		j := closeCode(s, i+n, n)
		if j < 0 {
			r.b.WriteString(s[i : i+n])
			return i + n
		}
		t := strings.ReplaceAll(s[i+n:j], "\n", " ")
		if len(t) > 2 && t[0] == ' ' && t[len(t)-1] == ' ' && strings.Trim(t, " ") != "" {
			t = t[1 : len(t)-1]
		}
		r.b.WriteString("<code>" + esc(t) + "</code>")
		return j + n
	case '*', '_', '~':
		n := run(s, i)
		j, key := -1, [2]int{int(c), n}
		if depth < maxDepth && (c != '~' && n <= 3 || n == 2) && i+n < len(s) && !space(s[i+n]) && (c != '_' || i == 0 || !alnum(s[i-1])) &&
			(fail[key] == 0 || i+n < fail[key]) {
			if j = closeEmph(s, i+n, c, n); j < 0 {
				fail[key] = i + n
			}
		}
		if j < 0 {
			r.b.WriteString(s[i : i+n])
			return i + n
		}
		open, close := "<del>", "</del>"
		switch {
		case c == '~':
		case n == 1:
			open, close = "<em>", "</em>"
		case n == 2:
			open, close = "<strong>", "</strong>"
		default:
			open, close = "<em><strong>", "</strong></em>"
		}
		r.b.WriteString(open)
		r.render(s[i+n:j], depth+1)
		r.b.WriteString(close)
		return j + n
	case '!', '[':
		t := i + 1
		if c == '!' {
			if t >= len(s) || s[t] != '[' {
				return i
			}
			t++
		}
		k := closeBracket(s, t)
		if r.inLink || depth >= maxDepth || k < 0 || k+1 >= len(s) || s[k+1] != '(' {
			return i
		}
		url, end := linkDest(s, k+2)
		if end < 0 {
			return i
		}
		text := s[t:k]
		if text == "" {
			text = url
		}
		r.inLink = true
		if safeURL(url) {
			r.b.WriteString(`<a href="` + esc(url) + `" rel="nofollow">`)
			r.render(text, depth+1)
			r.b.WriteString("</a>")
		} else {
			r.render(text, depth+1)
		}
		r.inLink = false
		return end
	case '<': // an autolink, <https://…>
		k := strings.IndexAny(s[i+1:], "< \t\n>")
		if k < 0 || s[i+1+k] != '>' || strings.IndexByte(s[i+1:i+1+k], ':') < 0 || r.inLink {
			return i
		}
		return r.link(s[i+1:i+1+k], i, i+k+2)
	case 'h': // a bare URL
		if r.inLink || (i > 0 && alnum(s[i-1])) || !(strings.HasPrefix(s[i:], "https://") || strings.HasPrefix(s[i:], "http://")) {
			return i
		}
		end := i + strings.IndexAny(s[i:]+" ", " \t\n<")
		for end > i && strings.IndexByte(".,:;!?\"'*_~)", s[end-1]) >= 0 &&
			(s[end-1] != ')' || strings.Count(s[i:end], "(") < strings.Count(s[i:end], ")")) {
			end--
		}
		if u := s[i:end]; u != "https://" && u != "http://" {
			return r.link(u, i, end)
		}
	}
	return i
}

// link writes url as a link to itself and returns end, or writes nothing
// and returns start if the URL is not safe.
func (r *inline) link(url string, start, end int) int {
	if !safeURL(url) {
		return start
	}
	r.b.WriteString(`<a href="` + esc(url) + `" rel="nofollow">` + esc(url) + "</a>")
	return end
}

// safeURL says whether a link may point at u: http, https, mailto, or a
// relative URL without any colon (so no other scheme, however spelled).
func safeURL(u string) bool {
	for i := 0; i < len(u); i++ {
		if u[i] <= ' ' || u[i] == 0x7f {
			return false
		}
	}
	l := strings.ToLower(u)
	return u != "" && (strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") ||
		strings.HasPrefix(l, "mailto:") || !strings.Contains(u, ":"))
}

func run(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == s[i] {
		n++
	}
	return n
}

func space(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
