package gfm

import (
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// html writes the extensions' nodes, without attributes (the inbox's
// markdown sets none).
type html struct{}

func (html) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindStrikethrough, tags("<del>", "</del>"))
	reg.Register(ast.KindTaskCheckBox, taskBox)
	reg.Register(ast.KindTable, tags("<table>\n", "</table>\n"))
	reg.Register(ast.KindTableHeader, tableHeader)
	reg.Register(ast.KindTableRow, tableRow)
	reg.Register(ast.KindTableCell, tableCell)
}

func tags(open, close string) renderer.NodeRendererFunc {
	return func(w util.BufWriter, _ []byte, _ gast.Node, entering bool) (gast.WalkStatus, error) {
		if entering {
			w.WriteString(open)
		} else {
			w.WriteString(close)
		}
		return gast.WalkContinue, nil
	}
}

func taskBox(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	if entering && n.(*ast.TaskCheckBox).IsChecked {
		w.WriteString(`<input checked="" disabled="" type="checkbox"> `)
	} else if entering {
		w.WriteString(`<input disabled="" type="checkbox"> `)
	}
	return gast.WalkContinue, nil
}

func tableHeader(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	switch {
	case entering:
		w.WriteString("<thead>\n<tr>\n")
	case n.NextSibling() != nil:
		w.WriteString("</tr>\n</thead>\n<tbody>\n")
	default:
		w.WriteString("</tr>\n</thead>\n")
	}
	return gast.WalkContinue, nil
}

func tableRow(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	switch {
	case entering:
		w.WriteString("<tr>\n")
	case n.Parent().LastChild() == n:
		w.WriteString("</tr>\n</tbody>\n")
	default:
		w.WriteString("</tr>\n")
	}
	return gast.WalkContinue, nil
}

func tableCell(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	tag := "td"
	if n.Parent().Kind() == ast.KindTableHeader {
		tag = "th"
	}
	if entering {
		w.WriteString("<" + tag + ">")
	} else {
		w.WriteString("</" + tag + ">\n")
	}
	return gast.WalkContinue, nil
}
