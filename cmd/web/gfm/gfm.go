// Package gfm is GitHub's extensions to markdown for goldmark: tables,
// strikethrough, task list items and bare links. It is goldmark's own
// extension package cut to what the web inbox uses (tables without
// alignment, no options, no attributes), and carries its licence
// (LICENSE, MIT).
//
// It is carried rather than imported because of what goldmark's package
// costs a program that merely links it: its regular expressions are
// compiled when the program starts, and the link finder's
// "{1,256}" grows the stack by megabytes doing so: 0.9 ms of CPU (bh
// --version: 8.1 against 7.2 ms, medians of 41 pairs, when bh linked the
// inbox). bh no longer does (bh-web does), but cmd's tests link it, and
// their scripts start that test binary as bh over a thousand times. Here the
// link finder's expressions are compiled on the first bare link, and the
// rest needs none.
package gfm

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// Extensions adds the four to a goldmark.Markdown, at goldmark's own
// priorities.
var Extensions goldmark.Extender = extensions{}

type extensions struct{}

func (extensions) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithParagraphTransformers(util.Prioritized(tableParagraphs{}, 200)),
		parser.WithASTTransformers(util.Prioritized(escapedPipes{}, 0)),
		parser.WithInlineParsers(
			util.Prioritized(taskBoxes{}, 0),
			util.Prioritized(strikes{}, 500),
			util.Prioritized(links{}, 999),
		),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(html{}, 500)))
}
