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
	open := []int{start} // offsets of the open '{' and '['
	var done [][2]int    // outermost objects closed so far
	state := wantKeyOrClose
	quote := -1 // opening quote of the string just read, or being read
	fail := func(at int) ([][]byte, int) {
		for _, d := range done {
			objs = append(objs, text[d[0]:d[1]])
		}
		if quote >= 0 {
			return objs, quote + 1
		}
		return objs, at
	}
	for i := start + 1; ; {
		if i = skipSpace(text, i); i >= len(text) {
			return fail(len(text))
		}
		c, last := text[i], quote
		quote = -1
		inObject := text[open[len(open)-1]] == '{'
		ok := true
		switch {
		case c == '"' && state != wantColon && state != wantCommaOrClose:
			quote = i
			if i, ok = scanString(text, i); !ok {
				return fail(i)
			}
			if state == wantKey || state == wantKeyOrClose {
				state = wantColon
			} else {
				state = wantCommaOrClose
			}
		case c == ':' && state == wantColon:
			i, state = i+1, wantValue
		case c == ',' && state == wantCommaOrClose && inObject:
			i, state = i+1, wantKey
		case c == ',' && state == wantCommaOrClose:
			i, state = i+1, wantValue
		case c == '}' && (state == wantKeyOrClose || state == wantCommaOrClose && inObject),
			c == ']' && (state == wantValueOrClose || state == wantCommaOrClose && !inObject):
			o := open[len(open)-1]
			open, i, state = open[:len(open)-1], i+1, wantCommaOrClose
			if len(open) == 0 {
				return [][]byte{text[o:i]}, i
			}
			if c == '}' {
				for len(done) > 0 && done[len(done)-1][0] > o {
					done = done[:len(done)-1] // nested in this one
				}
				done = append(done, [2]int{o, i})
			}
		case state != wantValue && state != wantValueOrClose:
			ok = false
		case len(open) == maxNesting && (c == '{' || c == '['):
			ok = false
		case c == '{' || c == '[':
			open, i, state = append(open, i), i+1, wantKeyOrClose
			if c == '[' {
				state = wantValueOrClose
			}
		default:
			i, ok = scanScalar(text, i)
			state = wantCommaOrClose
		}
		if !ok {
			quote = last
			return fail(i)
		}
	}
}
