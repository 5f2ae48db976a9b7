package agent

import (
	"bytes"
	"encoding/json"
)

// jsonObjects returns the outermost JSON objects found in text, in order.
// Agents wrap their result in prose or ```json fences; scanning for every
// decodable object covers both without trusting the fence markup.
func jsonObjects(text []byte) [][]byte {
	trimmed := bytes.TrimSpace(text)
	if json.Valid(trimmed) && len(trimmed) > 0 && trimmed[0] == '{' {
		return [][]byte{trimmed}
	}
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
		dec := json.NewDecoder(bytes.NewReader(text[start:]))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			i = start + 1
			continue
		}
		objs = append(objs, raw)
		i = start + int(dec.InputOffset())
	}
	return objs
}

// objectStart cheaply rejects braces that cannot open a JSON object (code
// such as "func f() {"), which would otherwise each cost a decode attempt.
func objectStart(rest []byte) bool {
	rest = bytes.TrimLeft(rest, " \t\r\n")
	return len(rest) > 0 && (rest[0] == '"' || rest[0] == '}')
}
