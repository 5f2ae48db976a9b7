package agent

import "bytes"

// The JSON tokens scanObject reads, each checked as encoding/json would.

// skipSpace returns the offset of the first non-whitespace byte at or after i.
func skipSpace(text []byte, i int) int {
	for i < len(text) {
		switch text[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// scanString checks the string whose opening quote is at text[i] and
// returns the offset just past it, or the offset of the first byte that
// cannot be in a JSON string (a control character such as a newline, or a
// bad escape), or len(text) if it never closes.
func scanString(text []byte, i int) (int, bool) {
	for i++; i < len(text); i++ {
		switch c := text[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			i++
			if i >= len(text) {
				return i, false
			}
			switch text[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 0; k < 4; k++ {
					if i++; i >= len(text) || !isHex(text[i]) {
						return i, false
					}
				}
			default:
				return i, false
			}
		}
	}
	return i, false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// scanScalar checks the number, true, false or null at text[i] and returns
// the offset just past it; the byte after it is left to the caller.
func scanScalar(text []byte, i int) (int, bool) {
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(text[i:], []byte(lit)) {
			return i + len(lit), true
		}
	}
	if text[i] == '-' {
		i++
	}
	switch {
	case i < len(text) && text[i] == '0':
		i++
	case i < len(text) && '1' <= text[i] && text[i] <= '9':
		i = digits(text, i)
	default:
		return i, false
	}
	i, ok := fraction(text, i)
	if !ok {
		return i, false
	}
	return exponent(text, i)
}

// fraction reads a number's optional fraction at text[i].
func fraction(text []byte, i int) (int, bool) {
	if i >= len(text) || text[i] != '.' {
		return i, true
	}
	j := digits(text, i+1)
	return j, j > i+1
}

// exponent reads a number's optional exponent at text[i].
func exponent(text []byte, i int) (int, bool) {
	if i >= len(text) || text[i] != 'e' && text[i] != 'E' {
		return i, true
	}
	i++
	if i < len(text) && (text[i] == '+' || text[i] == '-') {
		i++
	}
	j := digits(text, i)
	return j, j > i
}

// digits returns the offset of the first non-digit at or after i.
func digits(text []byte, i int) int {
	for i < len(text) && '0' <= text[i] && text[i] <= '9' {
		i++
	}
	return i
}
