package task

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// A reader for the YAML that bh itself writes: block mappings and
// sequences indented by spaces, and scalars that are plain, quoted on one
// line, or literal blocks. It reads a file in about a tenth of yaml.v3's
// time, which a first listing after a clone spends on every task. Anything
// else (comments, flow style, anchors, tags, folded or kept blocks, blank
// lines, tabs outside blocks, a null) makes it give up, and yaml.v3 reads
// the file: the two must agree on every file this one accepts.
//
// It stays because bh list after a clone (no list cache) must take at most
// 0.5 s at 10k tasks: measured 0.19 s with it, 0.78 s with yaml.v3 alone.

type ynode struct {
	kind  byte // 's' scalar, 'm' mapping (keys and values alternate), 'q' sequence
	plain bool // a plain scalar, which may resolve to a null
	val   string
	kids  []ynode
}

type yline struct {
	ind int    // leading spaces
	s   string // the rest; "" for a blank line
}

type yparser struct {
	lines []yline
	at    int
	stack []ynode // the kids of the mappings and sequences being read
	nodes []ynode // where finished ones keep them
}

// parsers keeps the scratch of parseYAML: a tree lives only until its
// task is filled in, and its strings point into the file, not the tree.
var parsers = sync.Pool{New: func() any { return &yparser{} }}

// parseYAML reads doc into a tree, which is good until done is called, or
// reports false for anything outside the subset.
func parseYAML(doc string) (root ynode, done func(), ok bool) {
	p := parsers.Get().(*yparser)
	done = func() { parsers.Put(p) }
	if !printable(doc) {
		return ynode{}, done, false
	}
	doc = strings.TrimSuffix(doc, "\n")
	p.lines, p.at, p.stack, p.nodes = p.lines[:0], 0, p.stack[:0], p.nodes[:0]
	if n := 3 * (strings.Count(doc, "\n") + 1); cap(p.nodes) < n {
		p.nodes = make([]ynode, 0, 2*n) // never outgrown: kids are slices of it
	}
	for line := range strings.SplitSeq(doc, "\n") {
		s := strings.TrimLeft(line, " ")
		p.lines = append(p.lines, yline{len(line) - len(s), s})
	}
	if len(p.lines) == 0 || p.lines[0].ind != 0 {
		return ynode{}, done, false
	}
	root, ok = p.mapping(0)
	return root, done, ok && p.at == len(p.lines)
}

// keep moves the kids pushed since start off the stack, into nodes.
func (p *yparser) keep(start int) []ynode {
	kids := p.stack[start:]
	at := len(p.nodes)
	p.nodes = append(p.nodes, kids...) // within its capacity: see parseYAML
	p.stack = p.stack[:start]
	return p.nodes[at:len(p.nodes):len(p.nodes)]
}

// printable is yaml.v3's test of the characters a stream may hold, with
// tabs allowed (where they may not be, the parser refuses them) and the
// line breaks beyond \n refused.
func printable(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\n' && c != '\t' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		// NEL, LS and PS break lines in YAML 1.1: refused, not followed.
		if r == utf8.RuneError && n == 1 || r < 0xA0 || r == 0x2028 || r == 0x2029 || r >= 0xD800 && r < 0xE000 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
			return false
		}
		i += n
	}
	return true
}

func (p *yparser) mapping(ind int) (ynode, bool) {
	start := len(p.stack)
	defer func() { p.stack = p.stack[:start] }()
	for p.at < len(p.lines) {
		l := p.lines[p.at]
		if l.ind < ind && l.s != "" {
			break
		}
		if l.ind != ind || l.s == "" {
			return ynode{}, false
		}
		colon := strings.IndexByte(l.s, ':')
		if colon <= 0 || !plainKey(l.s[:colon]) {
			return ynode{}, false
		}
		key, rest := l.s[:colon], l.s[colon+1:]
		for i := start; i < len(p.stack); i += 2 {
			if p.stack[i].val == key {
				return ynode{}, false // yaml.v3 refuses a key twice
			}
		}
		p.at++
		var v ynode
		var ok bool
		switch {
		case rest == "":
			v, ok = p.nested(ind)
		case rest[0] != ' ' || len(rest) < 2 || rest[1] == ' ':
			return ynode{}, false
		case rest[1:] == "|" || rest[1:] == "|-":
			v, ok = p.literal(ind, rest[1:] == "|-")
		default:
			v, ok = scalar(rest[1:])
		}
		if !ok {
			return ynode{}, false
		}
		p.stack = append(p.stack, ynode{kind: 's', val: key}, v)
	}
	if len(p.stack) == start {
		return ynode{}, false
	}
	return ynode{kind: 'm', kids: p.keep(start)}, true
}

// nested reads the block under a key at ind: a mapping or a sequence
// indented more, or a sequence at the key's own indentation.
func (p *yparser) nested(ind int) (ynode, bool) {
	if p.at == len(p.lines) {
		return ynode{}, false
	}
	l := p.lines[p.at]
	switch {
	case l.ind == ind && strings.HasPrefix(l.s, "- "), l.ind > ind && strings.HasPrefix(l.s, "- "):
		return p.sequence(l.ind)
	case l.ind > ind && l.s != "":
		return p.mapping(l.ind)
	}
	return ynode{}, false // a null
}

func (p *yparser) sequence(ind int) (ynode, bool) {
	start := len(p.stack)
	defer func() { p.stack = p.stack[:start] }()
	for p.at < len(p.lines) {
		l := p.lines[p.at]
		if l.ind != ind || !strings.HasPrefix(l.s, "- ") {
			if l.ind > ind || l.s == "" {
				return ynode{}, false
			}
			break
		}
		item := l.s[2:]
		if item == "" || item[0] == ' ' {
			return ynode{}, false
		}
		var v ynode
		var ok bool
		if colon := strings.IndexByte(item, ':'); colon > 0 && plainKey(item[:colon]) && (colon == len(item)-1 || item[colon+1] == ' ') {
			// A mapping starting on the dash's line: its keys line up after "- ".
			p.lines[p.at] = yline{ind + 2, item}
			v, ok = p.mapping(ind + 2)
		} else {
			p.at++
			v, ok = scalar(item)
		}
		if !ok {
			return ynode{}, false
		}
		p.stack = append(p.stack, v)
	}
	return ynode{kind: 'q', kids: p.keep(start)}, true
}

// literal reads a | or |- block under a key at ind.
func (p *yparser) literal(ind int, strip bool) (ynode, bool) {
	start := p.at
	if start == len(p.lines) || p.lines[start].s == "" || p.lines[start].ind <= ind {
		return ynode{}, false
	}
	n := p.lines[start].ind
	end := start
	for end < len(p.lines) && (p.lines[end].ind >= n || p.lines[end].s == "") {
		if p.lines[end].s == "" && p.lines[end].ind != 0 {
			return ynode{}, false // spaces alone on a line: rare, and subtle
		}
		end++
	}
	last := end // past the last line with text
	for last > start && p.lines[last-1].s == "" {
		last--
	}
	p.at = end
	var b strings.Builder
	for i := start; i < last; i++ {
		if i > start {
			b.WriteByte('\n')
		}
		l := p.lines[i]
		if l.s != "" {
			b.WriteString(strings.Repeat(" ", l.ind-n))
			b.WriteString(l.s)
		}
	}
	if !strip {
		b.WriteByte('\n')
	}
	return ynode{kind: 's', val: b.String()}, true
}

// plainKey is a key bh writes: letters only.
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if c := k[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// scalar reads a value on the rest of a line.
func scalar(s string) (ynode, bool) {
	if strings.IndexByte(s, '\t') >= 0 {
		return ynode{}, false
	}
	switch s[0] {
	case '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return ynode{}, false
		}
		in := s[1 : len(s)-1]
		for i := 0; i < len(in); i++ {
			if in[i] == '\'' {
				if i+1 == len(in) || in[i+1] != '\'' {
					return ynode{}, false
				}
				i++
			}
		}
		return ynode{kind: 's', val: strings.ReplaceAll(in, "''", "'")}, true
	case '"':
		v, ok := unquote(s)
		return ynode{kind: 's', val: v}, ok
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`', ' ':
		return ynode{}, false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || s[len(s)-1] == ':' || s[len(s)-1] == ' ' {
		return ynode{}, false
	}
	switch s {
	case "~", "null", "Null", "NULL":
		return ynode{}, false
	}
	return ynode{kind: 's', plain: true, val: s}, true
}

// unquote reads a double-quoted scalar that is the whole of s.
func unquote(s string) (string, bool) {
	if len(s) < 2 || s[len(s)-1] != '"' {
		return "", false
	}
	in := s[1 : len(s)-1]
	if strings.IndexByte(in, '\\') < 0 {
		return in, strings.IndexByte(in, '"') < 0
	}
	var b strings.Builder
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c == '"' {
			return "", false
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i++; i == len(in) {
			return "", false
		}
		if r, ok := escapes[in[i]]; ok {
			b.WriteRune(r)
			continue
		}
		width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[in[i]]
		if width == 0 || i+width >= len(in) {
			return "", false
		}
		v, err := strconv.ParseUint(in[i+1:i+1+width], 16, 32)
		if err != nil || v > utf8.MaxRune || v >= 0xD800 && v < 0xE000 {
			return "", false
		}
		b.WriteRune(rune(v))
		i += width
	}
	return b.String(), true
}

var escapes = map[byte]rune{'0': 0, 'a': '\a', 'b': '\b', 't': '\t', 'n': '\n', 'v': '\v', 'f': '\f', 'r': '\r',
	'e': 0x1b, ' ': ' ', '"': '"', '/': '/', '\\': '\\', 'N': 0x85, '_': 0xA0, 'L': 0x2028, 'P': 0x2029}
