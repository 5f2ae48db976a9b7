// Package diffview renders one file's diff for bh serve's pages: each line
// with its numbers in the old and the new file, and its code coloured
// server-side by chroma (github.com/alecthomas/chroma), in chroma's CSS
// classes, so that the page needs no script to read it and no inline
// style (the site's Content-Security-Policy allows none).
package diffview

import (
	_ "embed"
	"html/template"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"

	"github.com/bh-tracker/bh/worker/git"
)

// Line is one line of a file's diff as the page shows it.
type Line struct {
	Class    string        // meta, hunk, add, del or ctx, as git.DiffLine's
	Old, New int           // its numbers in the old and the new file; 0 where it has none
	Sign     string        // +, − or a space for a line of code; "" for a header
	Code     template.HTML // its text, escaped, the code's tokens in chroma's classes
}

// Bounds on what is coloured: an agent writes the diff, and chroma's
// lexers are regular expressions that backtrack. A longer line, or a file
// past maxColoured bytes, is shown plain.
const (
	maxLine     = 1000
	maxColoured = 256 << 10
)

// Lines are f's lines, numbered and coloured by the lexer its name picks
// (none: plain text).
func Lines(f git.FileDiff) []Line {
	out := make([]Line, len(f.Lines))
	var code []string // the text of the lines of code, in order
	old := 0
	for i, l := range f.Lines {
		out[i] = Line{Class: l.Class, New: l.Line, Code: template.HTML(template.HTMLEscapeString(l.Text))}
		if l.Class == "hunk" {
			old = hunkOld(l.Text)
		}
		sign, ok := signs[l.Class]
		if !ok || !strings.HasPrefix(l.Text, sign.diff) { // a ctx line that is none: "\ No newline…", "rename from"
			continue
		}
		if l.Class != "add" {
			out[i].Old, old = old, old+1
		}
		out[i].Sign, code = sign.shown, append(code, l.Text[1:])
		out[i].Code = template.HTML(template.HTMLEscapeString(l.Text[1:]))
	}
	coloured := colour(path.Base(f.Name), code)
	for i, n := range out {
		if n.Sign != "" && len(coloured) > 0 {
			out[i].Code, coloured = coloured[0], coloured[1:]
		}
	}
	return out
}

// signs are the first characters of the lines of code, by class: in the
// diff, and as shown (a minus sign, not a hyphen).
var signs = map[string]struct{ diff, shown string }{"add": {"+", "+"}, "del": {"-", "−"}, "ctx": {" ", " "}}

// hunkOld is the first old line a hunk header (@@ -a,b +c,d @@) names.
func hunkOld(h string) int {
	_, minus, _ := strings.Cut(h, " -")
	minus, _, _ = strings.Cut(minus, ",")
	minus, _, _ = strings.Cut(minus, " ")
	n, _ := strconv.Atoi(minus)
	return n
}

// colour is the lines of code of a file named name, each as HTML; nil
// when no lexer knows the name, or the code is too long to colour (the
// caller shows it plain). The lines are lexed together, in the diff's
// order, so that a token across lines (a comment, a string) is read as
// one; the old and new lines of a change then share one reading, as on
// GitHub.
func colour(name string, code []string) []template.HTML {
	lexer := match(name)
	text := strings.Join(code, "\n")
	if lexer == nil || len(text) > maxColoured || len(code) == 0 ||
		slices.ContainsFunc(code, func(l string) bool { return len(l) > maxLine }) {
		return nil
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, text+"\n")
	if err != nil {
		return nil
	}
	lines := chroma.SplitTokensIntoLines(it.Tokens())
	if len(lines) < len(code) {
		return nil
	}
	out := make([]template.HTML, len(code))
	for i := range code {
		out[i] = lineHTML(lines[i])
	}
	return out
}

// lineHTML is one line's tokens, escaped, each in its class (spaces in none).
func lineHTML(tokens []chroma.Token) template.HTML {
	var b strings.Builder
	for _, tok := range tokens {
		text := template.HTMLEscapeString(strings.TrimSuffix(tok.Value, "\n"))
		if cls := class(tok.Type); cls != "" && cls != "w" && text != "" {
			text = `<span class="` + cls + `">` + text + `</span>`
		}
		b.WriteString(text)
	}
	return template.HTML(b.String())
}

// class is a token's CSS class, as chroma's HTML formatter names it: its
// type's, or the nearest of its parents' (chroma's formatter writes whole
// lines with its own wrappers and numbers; a diff needs two numbers a
// line and its +/−, so the tokens are written here, in its classes).
func class(t chroma.TokenType) string {
	for ; t != 0; t = t.Parent() {
		if cls, ok := chroma.StandardTypes[t]; ok {
			return cls
		}
	}
	return chroma.StandardTypes[t]
}

// CSS is the stylesheet of the code's colours: chroma's GitHub style, and
// its GitHub dark style where the browser prefers a dark scheme, written
// by chroma once (TestCSSAsChromas) rather than at every start: chroma's
// styles package, like its lexers, builds all its styles when a program
// starts.
func CSS() ([]byte, error) { return codeCSS, nil }

//go:embed code.css
var codeCSS []byte
