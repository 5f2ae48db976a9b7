package agent

import "bytes"

// maxNesting is how deeply a result object may nest; encoding/json refuses
// deeper input, so a deeper object could never be decoded anyway.
const maxNesting = 10000

// jsonObjects returns the outermost JSON objects found in text, in order.
// Agents wrap their result in prose or ```json fences; scanning for every
// object covers both without trusting the fence markup.
//
// It takes time linear in len(text), whatever the text holds: from each
// '{' that may open an object, one pass checks JSON syntax. An object that
// closes is kept and the search goes on after it. At the first byte that
// cannot continue the object, or at the end of the text, the objects
// completed inside it are kept and the search resumes at that byte (see
// scanObject), so no byte is read more than a few times.
func jsonObjects(text []byte) [][]byte {
	var objs [][]byte
	for i := 0; i < len(text); {
		j := bytes.IndexByte(text[i:], '{')
		if j < 0 {
			break
		}
		start := i + j
		if !objectStart(text[start+1:]) {
			i = start + 1
			continue
		}
		var found [][]byte
		found, i = scanObject(text, start)
		objs = append(objs, found...)
	}
	return objs
}

// objectStart cheaply rejects braces that cannot open a JSON object (code
// such as "func f() {"), which would otherwise each start a scan. The
// whitespace skipped after distinct braces does not overlap, so the
// skipping stays linear in total.
func objectStart(rest []byte) bool {
	rest = bytes.TrimLeft(rest, " \t\r\n")
	return len(rest) > 0 && (rest[0] == '"' || rest[0] == '}')
}

// What scanObject expects next.
const (
	wantValue        = iota // any value, after ':' or ',' in an array
	wantValueOrClose        // a value or ']', just after '['
	wantKey                 // a key, after ',' in an object
	wantKeyOrClose          // a key or '}', just after '{'
	wantColon               // ':' after a key
	wantCommaOrClose        // ',' or the end of the innermost container
)

// scanObject checks the JSON object that opens at text[start]. If it is
// valid it returns it and the offset just past it. Otherwise it returns
// the outermost objects completed inside it before the first byte that
// does not fit (or the end of the text), and the offset at which to resume
// the search: that byte, or, when the trouble is in or right after a
// string, just inside that string's opening quote. A stray quote in prose
// ({"x": "foo} ... {"status": ...) puts the scan out of step, reading
// prose as a string and a string as prose, and the object that follows
// would be lost if the search resumed after it. A string holds no
// unescaped quote, so the resumed search cannot start a string inside it
// and reads it at most once more.
func scanObject(text []byte, start int) (objs [][]byte, next int) {
	s := &objectScan{text: text, open: []int{start}, state: wantKeyOrClose, quote: -1}
	for i := start + 1; ; {
		if i = skipSpace(text, i); i >= len(text) {
			return s.fail(len(text))
		}
		last := s.quote
		s.quote = -1
		next, ok, closed := s.step(i)
		if closed {
			return [][]byte{text[start:next]}, next
		}
		if !ok {
			if s.quote < 0 {
				s.quote = last // the trouble is right after that string
			}
			return s.fail(next)
		}
		i = next
	}
}

// objectScan is scanObject's state between bytes.
type objectScan struct {
	text  []byte
	open  []int    // offsets of the open '{' and '['
	done  [][2]int // outermost objects closed so far
	state int
	quote int // opening quote of the string just read, or being read
}

// fail returns the objects completed so far and where to resume the search.
func (s *objectScan) fail(at int) ([][]byte, int) {
	var objs [][]byte
	for _, d := range s.done {
		objs = append(objs, s.text[d[0]:d[1]])
	}
	if s.quote >= 0 {
		return objs, s.quote + 1
	}
	return objs, at
}

// step reads the token at text[i]. It returns the offset after it, or the
// offset of the trouble when !ok; closed says the outermost object closed.
func (s *objectScan) step(i int) (next int, ok, closed bool) {
	c := s.text[i]
	switch {
	case c == '"' && s.state != wantColon && s.state != wantCommaOrClose:
		return s.str(i)
	case s.state == wantValue || s.state == wantValueOrClose && c != ']':
		next, ok = s.value(i)
		return next, ok, false
	}
	return s.punct(i)
}

// str reads a string, a key or a value by the state.
func (s *objectScan) str(i int) (next int, ok, closed bool) {
	s.quote = i
	if i, ok = scanString(s.text, i); !ok {
		return i, false, false
	}
	if s.state == wantKey || s.state == wantKeyOrClose {
		s.state = wantColon
	} else {
		s.state = wantCommaOrClose
	}
	return i, true, false
}

// value reads a value other than a string where one is wanted.
func (s *objectScan) value(i int) (next int, ok bool) {
	c := s.text[i]
	switch {
	case c != '{' && c != '[':
		s.state = wantCommaOrClose
		return scanScalar(s.text, i)
	case len(s.open) == maxNesting:
		return i, false
	}
	s.open, s.state = append(s.open, i), wantKeyOrClose
	if c == '[' {
		s.state = wantValueOrClose
	}
	return i + 1, true
}

// punct reads ':', ',' or the end of a container where one fits.
func (s *objectScan) punct(i int) (next int, ok, closed bool) {
	c := s.text[i]
	inObject := s.text[s.open[len(s.open)-1]] == '{'
	switch {
	case c == ':' && s.state == wantColon:
		s.state = wantValue
	case c == ',' && s.state == wantCommaOrClose && inObject:
		s.state = wantKey
	case c == ',' && s.state == wantCommaOrClose:
		s.state = wantValue
	case c == '}' && (s.state == wantKeyOrClose || s.state == wantCommaOrClose && inObject),
		c == ']' && (s.state == wantValueOrClose || s.state == wantCommaOrClose && !inObject):
		return i + 1, true, s.close(i + 1)
	default:
		return i, false, false
	}
	return i + 1, true, false
}

// close pops the container that ends just before end and reports whether
// it was the outermost object.
func (s *objectScan) close(end int) bool {
	o := s.open[len(s.open)-1]
	s.open, s.state = s.open[:len(s.open)-1], wantCommaOrClose
	if len(s.open) == 0 {
		return true
	}
	if s.text[o] == '{' {
		for len(s.done) > 0 && s.done[len(s.done)-1][0] > o {
			s.done = s.done[:len(s.done)-1] // nested in this one
		}
		s.done = append(s.done, [2]int{o, end})
	}
	return false
}
