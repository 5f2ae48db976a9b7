package agent

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestJSONObjects(t *testing.T) {
	deep := strings.Repeat(`{"a":`, maxNesting+1)
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", nil},
		{"prose", "no objects {here} or {\n there }", nil},
		{"whole object", ` {"a": 1} `, []string{`{"a": 1}`}},
		{"fenced, braces in strings", "ok:\n```json\n{\"a\": \"{x} \\\"}\\\"\"}\n```\n",
			[]string{`{"a": "{x} \"}\""}`}},
		{"several in order", `{"a":1} and {"b":[1,{"c":2}]}`, []string{`{"a":1}`, `{"b":[1,{"c":2}]}`}},
		{"inside an array", `[{"a":1},{"b":2}]`, []string{`{"a":1}`, `{"b":2}`}},
		{"code braces", "func f() { return }\n{\"a\":1}", []string{`{"a":1}`}},
		{"every kind of value", `{"a":[-1.5e+3,0,2E-1,true,false,null,{},[],"\u00e9\n"]}`,
			[]string{`{"a":[-1.5e+3,0,2E-1,true,false,null,{},[],"\u00e9\n"]}`}},
		{"bad number", `{"a":01} {"b":1.} {"c":-}`, nil},
		{"bad literal", `{"a":tru}`, nil},
		{"bad escape", `{"a":"\x"}`, nil},
		{"objects inside a broken one", `{"a": {"b":1}, "c": {"d":{"e":2}} oops} {"f":3}`,
			[]string{`{"b":1}`, `{"d":{"e":2}}`, `{"f":3}`}},
		{"objects inside an unterminated one", `{"a": {"b":1}, "c": [{"d":2}`, []string{`{"b":1}`, `{"d":2}`}},
		{"object right after the error", `{"a" {"b":1}`, []string{`{"b":1}`}},
		{"stray quote before an object", `He wrote {"x": "foo} and then {"b":1}`, []string{`{"b":1}`}},
		{"newline ends a runaway string", "Use {\"name to\n{\"b\":1}", []string{`{"b":1}`}},
		{"unterminated string at the end", `{"b":1} {"a":"x`, []string{`{"b":1}`}},
		{"too deep", `{"a":` + strings.Repeat("[", maxNesting) + strings.Repeat("]", maxNesting) + "}", nil},
		{"deep unterminated then an object", deep + "\n" + `{"b":1}`, []string{`{"b":1}`}},
		{"too deep, the scan starts over", deep + `1` + strings.Repeat("}", maxNesting+1) + ` {"b":1}`,
			[]string{`{"a":1}`, `{"b":1}`}},
		{"repeated quote braces then an object", strings.Repeat(`{"`, 1000) + `{"b":1}`, []string{`{"b":1}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, o := range jsonObjects([]byte(tt.text)) {
				got = append(got, string(o))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("jsonObjects(%.80q) =\n%.200q\nwant\n%.200q", tt.text, got, tt.want)
			}
		})
	}
}

// FuzzJSONObjects checks what holds for any text: the objects found are
// valid JSON, in order and apart, and a text that is one object is found
// whole.
func FuzzJSONObjects(f *testing.F) {
	for _, s := range []string{``, `{"a":1}`, `x {"a":{"b":[1,"}"]}} y`, `{"a" {"b":1}`, `{"{"{"`,
		"{\"a\":\"b\n{\"c\":1}", `{"a":"\u12"}`, `{"a":[{"b":1},{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		objs := jsonObjects([]byte(text))
		rest := text
		for _, o := range objs {
			if !json.Valid(o) || o[0] != '{' {
				t.Fatalf("found %q, not a JSON object", o)
			}
			i := strings.Index(rest, string(o))
			if i < 0 {
				t.Fatalf("found %q out of order in %q", o, text)
			}
			rest = rest[i+len(o):]
		}
		trimmed := bytes.TrimSpace([]byte(text))
		if len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) &&
			(len(objs) != 1 || !bytes.Equal(objs[0], trimmed)) {
			t.Fatalf("jsonObjects(%q) = %q, want the whole text", text, objs)
		}
	})
}

// benchParse times ParseResult on text, which may hold no result.
func benchParse(b *testing.B, text []byte) {
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_, _ = ParseResult(text)
	}
}

func BenchmarkParseNestedUnterminated1MB(b *testing.B) {
	benchParse(b, bytes.Repeat([]byte(`{"a":`), 1<<20/5))
}

func BenchmarkParseQuoteBraces1MB(b *testing.B) {
	benchParse(b, bytes.Repeat([]byte(`{"`), 1<<20/2))
}

func BenchmarkParseProse1MB(b *testing.B) {
	line := "Changed func f() { return } in a.go; see {x} and \"quotes\".\n"
	benchParse(b, []byte(strings.Repeat(line, 1<<20/len(line))+`{"status":"completed","summary":"done"}`))
}
