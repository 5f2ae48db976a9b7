package web

import (
	"bytes"
	"html/template"
	"slices"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"

	"github.com/bh-tracker/bh/cmd/web/gfm"
)

// markdown renders an agent's text (a task's description, a question, a
// summary) as GitHub-flavoured markdown (gfm) through goldmark with its safe
// defaults: no raw HTML (html.WithUnsafe is not set), and a link to a
// javascript:, vbscript:, file: or data: address gets an empty one. Raw
// HTML is not even parsed: "<script>" shows as the text it is, as the
// agent wrote it, where goldmark would leave it out.
// goldmark's parsers run bounded (markdown_bounds.go), so that the time
// a page takes grows with the text's length, whatever the text. Tables
// ignore alignment, which would need the inline styles the page's CSP
// refuses.
type markdown struct{ md goldmark.Markdown }

func newMarkdown() *markdown {
	blocks := slices.DeleteFunc(parser.DefaultBlockParsers(), func(v util.PrioritizedValue) bool {
		return v.Value == parser.NewHTMLBlockParser()
	})
	inlines := slices.DeleteFunc(parser.DefaultInlineParsers(), func(v util.PrioritizedValue) bool {
		return v.Value == parser.NewRawHTMLParser()
	})
	p := bounded{parser.NewParser()}
	p.AddOptions(parser.WithBlockParsers(blocks...), parser.WithInlineParsers(inlines...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		parser.WithParagraphTransformers(paragraphBounds))
	return &markdown{goldmark.New(goldmark.WithParser(p), goldmark.WithExtensions(gfm.Extensions))}
}

// maxMarkdown is how much of a text is rendered: a task file can hold
// megabytes an agent wrote, and every page view renders them again.
const maxMarkdown = 64 << 10

// HTML is text rendered, cut at maxMarkdown with a note that says where
// the whole of task id's text is.
func (m *markdown) HTML(text, id string) template.HTML {
	cut := len(text) > maxMarkdown
	if cut {
		i := maxMarkdown // on a character's boundary
		for i > maxMarkdown-utf8.UTFMax && !utf8.RuneStart(text[i]) {
			i--
		}
		text = text[:i]
	}
	var b bytes.Buffer
	if err := m.md.Convert([]byte(text), &b); err != nil {
		b.Reset()
		b.WriteString("<pre>" + template.HTMLEscapeString(text) + "</pre>\n")
	}
	if cut {
		b.WriteString(`<p class="note">The text is cut at 64 KiB here: the whole of it is in .bh/tasks/` +
			template.HTMLEscapeString(id) + ".yaml.</p>\n")
	}
	return template.HTML(b.String())
}
