package gfm

import (
	"bytes"

	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// tableParagraphs turns a paragraph whose second line is a delimiter row
// into a table. Cells are not aligned: that needs inline styles.
type tableParagraphs struct{}

func (tableParagraphs) Transform(node *gast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := node.Lines()
	for i := 1; i < lines.Len(); i++ {
		delim := lines.At(i)
		cols := delimiterColumns(delim.Value(reader.Source()))
		if cols == 0 {
			continue
		}
		header := parseRow(lines.At(i-1), cols, true, reader, pc)
		if cols != header.ChildCount() {
			return
		}
		table := ast.NewTable()
		table.Alignments = make([]ast.Alignment, cols) // AlignNone
		table.SetPos(node.Pos())
		table.AppendChild(table, ast.NewTableHeader(header))
		for j := i + 1; j < lines.Len(); j++ {
			table.AppendChild(table, parseRow(lines.At(j), cols, false, reader, pc))
		}
		node.Lines().SetSliced(0, i-1)
		node.Parent().InsertAfter(node.Parent(), node, table)
		if node.Lines().Len() == 0 {
			node.Parent().RemoveChild(node.Parent(), node)
		} else {
			last := node.Lines().At(i - 2)
			last.Stop-- // the newline
			node.Lines().Set(i-2, last)
		}
	}
}

// delimiterColumns is how many columns a delimiter row (| --- | :-: |)
// has; 0 when line is none.
func delimiterColumns(line []byte) int {
	if w, _ := util.IndentWidth(line, 0); w > 3 || len(bytes.Trim(line, "|-: \t\r\n\v\f")) > 0 ||
		len(bytes.Trim(line, "-")) == 0 {
		return 0
	}
	cols := bytes.Split(line, []byte{'|'})
	if util.IsBlank(cols[0]) {
		cols = cols[1:]
	}
	if len(cols) > 0 && util.IsBlank(cols[len(cols)-1]) {
		cols = cols[:len(cols)-1]
	}
	for _, col := range cols {
		if !delimiterCell(col) {
			return 0
		}
	}
	return len(cols)
}

// delimiterCell says whether col is a delimiter row's cell: ^\s*:?-+:?\s*$.
func delimiterCell(col []byte) bool {
	col = bytes.TrimSuffix(bytes.TrimPrefix(util.TrimRightSpace(util.TrimLeftSpace(col)), []byte(":")), []byte(":"))
	return len(col) > 0 && len(bytes.Trim(col, "-")) == 0
}

// escapedPipeCellsKey is the cells whose code spans hold an escaped
// pipe, for escapedPipes.
var escapedPipeCellsKey = parser.NewContextKey()

type escapedPipeCell struct {
	cell        *ast.TableCell
	pos         []int
	transformed bool
}

// parseRow is a row of cols cells (a header's may have more: then it is
// no table).
func parseRow(segment text.Segment, cols int, isHeader bool, reader text.Reader, pc parser.Context) *ast.TableRow {
	npos := segment
	source := reader.Source()
	segment = segment.TrimLeftSpace(source)
	segment = segment.TrimRightSpace(source)
	line := segment.Value(source)
	pos, limit := len(line)-len(bytes.TrimPrefix(line, []byte("|"))), len(bytes.TrimSuffix(line, []byte("|")))
	row := ast.NewTableRow(make([]ast.Alignment, cols))
	row.SetPos(npos.Start)
	i := 0
	for ; pos < limit && (i < cols || isHeader); i++ {
		node := ast.NewTableCell()
		node.SetPos(npos.Start + pos - npos.Padding)
		end, escaped := cellEnd(line, pos, limit)
		if len(escaped) > 0 {
			noteEscapedPipes(pc, node, segment.Start, escaped)
		}
		seg := text.NewSegment(segment.Start+pos, segment.Start+end)
		seg = seg.TrimLeftSpace(source)
		node.Lines().Append(seg.TrimRightSpace(source))
		row.AppendChild(row, node)
		pos = end + 1
	}
	for ; i < cols; i++ {
		row.AppendChild(row, ast.NewTableCell())
	}
	return row
}

// noteEscapedPipes notes cell's escaped pipes (their backslashes at at,
// from its row's start) for escapedPipes.
func noteEscapedPipes(pc parser.Context, cell *ast.TableCell, start int, at []int) {
	for k := range at {
		at[k] += start
	}
	list, _ := pc.Get(escapedPipeCellsKey).([]*escapedPipeCell)
	pc.Set(escapedPipeCellsKey, append(list, &escapedPipeCell{cell: cell, pos: at}))
}

// cellEnd is where the cell from pos ends (its pipe, or limit), and the
// backslashes of the escaped pipes in it after a backtick (in what may
// be a code span).
func cellEnd(line []byte, pos, limit int) (int, []int) {
	var escaped []int
	hasBacktick := false
	for end := pos; end < limit; end++ {
		switch {
		case line[end] == '`':
			hasBacktick = true
		case line[end] != '|':
		case end == 0 || line[end-1] != '\\':
			return end, escaped
		case hasBacktick:
			escaped = append(escaped, end-1)
		}
	}
	return limit, escaped
}

// escapedPipes takes the backslash out of "\|" in a cell's code span,
// where markdown would keep it.
type escapedPipes struct{}

func (escapedPipes) Transform(_ *gast.Document, _ text.Reader, pc parser.Context) {
	list, _ := pc.Get(escapedPipeCellsKey).([]*escapedPipeCell)
	pc.Set(escapedPipeCellsKey, nil)
	for _, v := range list {
		if v.transformed {
			continue
		}
		_ = gast.Walk(v.cell, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
			if entering && n.Kind() == gast.KindCodeSpan {
				splitEscapedPipes(n, list)
			}
			return gast.WalkContinue, nil
		})
	}
}

// splitEscapedPipes drops the backslashes at the escaped pipes of list
// from code span n's texts.
func splitEscapedPipes(n gast.Node, list []*escapedPipeCell) {
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		if c.Kind() != gast.KindText {
			c = next
			continue
		}
		parent, ts, cur := c.Parent(), &c.(*gast.Text).Segment, c
		for _, v := range list {
			for _, pos := range v.pos {
				if ts.Start <= pos && pos < ts.Stop {
					segment := cur.(*gast.Text).Segment
					n1 := gast.NewRawTextSegment(segment.WithStop(pos))
					n2 := gast.NewRawTextSegment(segment.WithStart(pos + 1))
					parent.InsertAfter(parent, cur, n1)
					parent.InsertAfter(parent, n1, n2)
					parent.RemoveChild(parent, cur)
					cur = n2
					v.transformed = true
				}
			}
		}
		c = next
	}
}
