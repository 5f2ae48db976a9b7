package web

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// goldmark is quadratic on some texts, as most markdown parsers have been:
// a link's destination is looked for to the end of its paragraph, an
// emphasis closer searches back through every opener, each "> " of a line
// opens one more quote, and a table pads every row to its header's width.
// So its parsers run bounded here, every one of them, the extensions'
// too: blocks nest at most maxNesting deep, an inline parser runs at most
// maxMarkers times in one block (then its markers are text), and
// paragraphs are cut where link references or a table's padding would
// grow past a bound. Then a block of n bytes costs at most n·maxMarkers,
// and a text its length times a constant.
const (
	maxNesting = 16
	maxMarkers = 256
	maxPadding = 1 << 14
)

// bounded is goldmark's parser with every parser added to it bounded.
type bounded struct{ parser.Parser }

func (b bounded) AddOptions(opts ...parser.Option) {
	for _, o := range opts {
		c := parser.NewConfig()
		o.SetParserOption(c)
		switch {
		case len(c.BlockParsers) > 0:
			for i, v := range c.BlockParsers {
				if v.Value != parser.NewParagraphParser() { // the one that takes any line
					c.BlockParsers[i].Value = nested{v.Value.(parser.BlockParser)}
				}
			}
			b.Parser.AddOptions(parser.WithBlockParsers(c.BlockParsers...))
		case len(c.InlineParsers) > 0:
			for i, v := range c.InlineParsers {
				c.InlineParsers[i].Value = &budget{InlineParser: v.Value.(parser.InlineParser)}
			}
			b.Parser.AddOptions(parser.WithInlineParsers(c.InlineParsers...))
		default:
			b.Parser.AddOptions(o)
		}
	}
}

// nested opens no block deeper than maxNesting: a line of a thousand
// "> " is a paragraph at that depth, not a thousand quotes.
type nested struct{ parser.BlockParser }

func (n nested) Open(parent ast.Node, r text.Reader, pc parser.Context) (ast.Node, parser.State) {
	d := 0
	for p := parent; p != nil; p = p.Parent() {
		d++
	}
	if d > maxNesting {
		return nil, parser.NoChildren
	}
	return n.BlockParser.Open(parent, r, pc)
}

// budget is an inline parser that runs at most maxMarkers times on
// markers (punctuation: a space, which the linkifier looks after, is
// free) in one block.
type budget struct{ parser.InlineParser }

// markers counts, while a text is parsed, how many times each budget ran
// in the block being parsed.
type markers struct {
	block ast.Node
	calls map[*budget]int
}

var markersKey = parser.NewContextKey()

func (b *budget) Parse(parent ast.Node, r text.Reader, pc parser.Context) ast.Node {
	if util.IsPunct(r.Peek()) {
		m, _ := pc.Get(markersKey).(*markers)
		if m == nil {
			m = &markers{calls: map[*budget]int{}}
			pc.Set(markersKey, m)
		}
		if m.block != parent {
			m.block = parent
			clear(m.calls)
		}
		if m.calls[b]++; m.calls[b] > maxMarkers {
			return nil
		}
	}
	return b.InlineParser.Parse(parent, r, pc)
}

// CloseBlock is the parser's own, if it has one (goldmark calls it only
// on parsers that have).
func (b *budget) CloseBlock(parent ast.Node, r text.Reader, pc parser.Context) {
	if c, ok := b.InlineParser.(parser.CloseBlocker); ok {
		c.CloseBlock(parent, r, pc)
	}
}

// paragraphBounds runs before goldmark's link references (100) and its
// tables (200), both of which are quadratic in a paragraph's lines:
// every definition taken out of a paragraph moves the lines after it,
// and a table pads each row to its header's width (so a wide header over
// many short rows makes cells in the product of the two). A paragraph
// that starts with "[" is cut every maxMarkers lines, and a table ends
// where it would gain more than maxPadding empty cells: the rest is a
// paragraph of its own.
var paragraphBounds = util.Prioritized(bounds{}, 50)

type bounds struct{}

func (bounds) Transform(p *ast.Paragraph, r text.Reader, _ parser.Context) {
	lines, src := p.Lines(), r.Source()
	if first := lines.At(0); bytes.HasPrefix(bytes.TrimLeft(first.Value(src), " "), []byte("[")) && lines.Len() > maxMarkers {
		split(p, maxMarkers)
	}
	width, pad := 0, 0
	for i := 1; i < lines.Len(); i++ {
		seg := lines.At(i)
		line := seg.Value(src)
		if width == 0 {
			if delimiterRow(line) {
				width = 1 + bytes.Count(line, []byte{'|'})
			}
			continue
		}
		if pad += max(0, width-1-bytes.Count(line, []byte{'|'})); pad > maxPadding {
			split(p, i)
			return
		}
	}
}

// split moves p's lines from the i-th on into a paragraph after it.
func split(p *ast.Paragraph, i int) {
	rest := ast.NewParagraph()
	rest.Lines().AppendAll(p.Lines().Sliced(i, p.Lines().Len()))
	p.Lines().SetSliced(0, i)
	p.Parent().InsertAfter(p.Parent(), p, rest)
}

// delimiterRow says whether line may be a table's delimiter row, as
// goldmark reads one: only pipes, dashes, colons and spaces.
func delimiterRow(line []byte) bool {
	return len(bytes.Trim(line, "|-: \t\r\n")) == 0 && bytes.ContainsAny(line, "|:")
}
