package web

import "strings"

// closeCode is where the code span whose opening run of n backticks ends
// at from closes (a run of exactly n), or -1.
func closeCode(s string, from, n int) int {
	for j := from; j < len(s); {
		k := strings.IndexByte(s[j:], '`')
		if k < 0 {
			return -1
		}
		j += k
		m := run(s, j)
		if m == n {
			return j
		}
		j += m
	}
	return -1
}

// skipCode is the end of the code span starting at s[j], or j+1 if none
// starts there; code hides the markers inside it.
func skipCode(s string, j int) int {
	n := run(s, j)
	if k := closeCode(s, j+n, n); k >= 0 {
		return k + n
	}
	return j + n
}

// closeEmph is where the emphasis opened by a run of n c's ending at from
// closes: a run of exactly n c's after some text, not after a space (and
// for _, not inside a word), or -1.
func closeEmph(s string, from int, c byte, n int) int {
	for j := from; j < len(s); {
		switch s[j] {
		case '\\':
			j += 2
		case '`':
			j = skipCode(s, j)
		case c:
			m := run(s, j)
			if m == n && j > from && !space(s[j-1]) && (c != '_' || j+m == len(s) || !alnum(s[j+m])) {
				return j
			}
			j += m
		default:
			j++
		}
	}
	return -1
}

// maxLink bounds how far a link's text, and its destination, is looked
// for, so that text full of unclosed brackets is not searched again and
// again to its end.
const maxLink = 2000

// closeBracket is where the link text starting at from closes (brackets
// nest), or -1.
func closeBracket(s string, from int) int {
	depth := 1
	s = s[:min(len(s), from+maxLink)]
	for j := from; j < len(s); {
		switch s[j] {
		case '\\':
			j += 2
			continue
		case '`':
			j = skipCode(s, j)
			continue
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return j
			}
		}
		j++
	}
	return -1
}

// linkDest reads a link's (destination "title") from just after its
// opening parenthesis: the destination, backslash escapes undone, and
// where the link ends; -1 if it is not one.
func linkDest(s string, i int) (string, int) {
	s = s[:min(len(s), i+maxLink)]
	skip := func() {
		for i < len(s) && space(s[i]) {
			i++
		}
	}
	skip()
	var dest strings.Builder
	if i < len(s) && s[i] == '<' {
		k := strings.IndexAny(s[i+1:], "<>\n")
		if k < 0 || s[i+1+k] != '>' {
			return "", -1
		}
		dest.WriteString(s[i+1 : i+1+k])
		i += k + 2
	} else {
		for parens := 0; i < len(s) && !space(s[i]) && s[i] > ' '; i++ {
			if s[i] == '\\' && i+1 < len(s) && s[i+1] > ' ' {
				i++
			} else if s[i] == '(' {
				parens++
			} else if s[i] == ')' {
				if parens == 0 {
					break
				}
				parens--
			}
			dest.WriteByte(s[i])
		}
	}
	skip()
	if i < len(s) && strings.IndexByte(`"'(`, s[i]) >= 0 { // a title, left out
		q := s[i]
		if q == '(' {
			q = ')'
		}
		k := strings.IndexByte(s[i+1:], q)
		if k < 0 {
			return "", -1
		}
		i += k + 2
		skip()
	}
	if i >= len(s) || s[i] != ')' {
		return "", -1
	}
	return dest.String(), i + 1
}
