package diffview

import (
	"bytes"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// TestLexersAsChromas: each lexer bh carries reads a sample of its
// language into the tokens chroma's own lexer of that name does (the
// copies are chroma's files; a chroma upgrade that changes them shows
// here), and picks the same lexer by file name.
func TestLexersAsChromas(t *testing.T) {
	samples := map[string]string{
		"Go":         "package main\n\nimport \"fmt\"\n\n// main says hi.\nfunc main() {\n\tx := 0x1F + len(\"a\")\n\tfmt.Println(x, 'c', 1.5e3)\n}\n",
		"Python":     "def f(x):\n    \"\"\"doc\"\"\"\n    return [i for i in range(x) if i % 2]  # odd\n",
		"JavaScript": "const f = (a) => { return `t ${a}` + /re/g.test(a); } // c\n",
		"Bash":       "for f in *.go; do echo \"$f\" | grep -q x && exit 1; done\n",
		"YAML":       "key: value\nlist:\n  - 1\n  - \"two\" # c\n",
		"Rust":       "fn main() { let v: Vec<u8> = vec![1, 2]; println!(\"{:?}\", v); }\n",
	}
	paths, _ := fs.Glob(lexerFiles, "lexers/*.xml")
	if len(paths) < 20 {
		t.Fatalf("%d lexers carried", len(paths))
	}
	for name, text := range samples {
		ours, theirs := registry().Get(name), lexers.Get(name)
		if ours == nil || theirs == nil || ours.Config().Name != theirs.Config().Name {
			t.Errorf("%s: ours %v, chroma's %v", name, ours, theirs)
			continue
		}
		if got, want := tokens(t, ours, text), tokens(t, theirs, text); !reflect.DeepEqual(got, want) {
			t.Errorf("%s reads\n%v\nchroma's\n%v", name, got, want)
		}
	}
	for _, file := range []string{"main.go", "x.py", "a/b.ts", "Makefile", "Dockerfile", "c.yaml", "d.rs", "e.toml"} {
		ours, theirs := match(file), lexers.Match(file)
		if ours == nil || theirs == nil || ours.Config().Name != theirs.Config().Name {
			t.Errorf("%s: ours %v, chroma's %v", file, ours, theirs)
		}
	}
	if match("notes.weird") != nil {
		t.Error("a lexer for an unknown name")
	}
}

func tokens(t *testing.T, l chroma.Lexer, text string) []chroma.Token {
	it, err := chroma.Coalesce(l).Tokenise(nil, text)
	if err != nil {
		t.Fatal(err)
	}
	return it.Tokens()
}

// TestCSSAsChromas: code.css is what chroma writes for its GitHub styles.
func TestCSSAsChromas(t *testing.T) {
	f := html.New(html.WithClasses(true))
	var b bytes.Buffer
	f.WriteCSS(&b, styles.Get("github"))
	b.WriteString("@media (prefers-color-scheme: dark) {\n")
	f.WriteCSS(&b, styles.Get("github-dark"))
	b.WriteString("}\n")
	if got := string(codeCSS); got != b.String() {
		t.Errorf("code.css is not chroma's: write it again from this test's stylesheet (%d bytes, chroma's %d)\n%s",
			len(got), b.Len(), strings.Repeat("-", 20))
	}
}
