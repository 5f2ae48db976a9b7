package cmd

import (
	"slices"
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
)

// buildForest hangs each task under its parent, in queue order. Tasks with
// no parent, or a parent that is missing, are roots. Each task appears once,
// so a cycle of parents cannot loop: it is shown from its first task.
func buildForest(tasks []*task.Task) []*treeNode {
	sorted := slices.Clone(tasks)
	task.SortQueue(sorted)
	// Tasks by position in sorted: one map of IDs, and slices for the rest
	// (at 10k tasks, maps of kids and of seen tasks were a tenth of bh tree).
	at := make(map[string]int, len(sorted))
	for i, t := range sorted {
		at[t.ID] = i
	}
	kids := make([][]int, len(sorted))
	var roots []int
	for i, t := range sorted {
		if p, ok := at[t.Parent]; ok && t.Parent != t.ID {
			kids[p] = append(kids[p], i)
		} else {
			roots = append(roots, i)
		}
	}
	seen := make([]bool, len(sorted))
	var grow func(int) *treeNode
	grow = func(i int) *treeNode {
		seen[i] = true
		n := &treeNode{Task: sorted[i], Children: []*treeNode{}}
		for _, c := range kids[i] {
			if !seen[c] {
				n.Children = append(n.Children, grow(c))
			}
		}
		return n
	}
	forest := []*treeNode{}
	for _, r := range roots {
		forest = append(forest, grow(r))
	}
	for i := range sorted {
		if !seen[i] { // on a cycle of parents: reachable from no root
			forest = append(forest, grow(i))
		}
	}
	return forest
}

func findNode(nodes []*treeNode, id string) *treeNode {
	for _, n := range nodes {
		if n.ID == id {
			return n
		}
		if f := findNode(n.Children, id); f != nil {
			return f
		}
	}
	return nil
}

func printTree(io *IOStreams, nodes []*treeNode) {
	// Lines appended to one buffer: at 10k tasks, a Fprintf per line was
	// a tenth of bh tree.
	var b []byte
	for _, n := range nodes {
		if b = appendNode(io, b, n, "", ""); len(b) >= 32<<10 {
			io.Out.Write(b)
			b = b[:0]
		}
	}
	io.Out.Write(b)
}

func appendNode(io *IOStreams, b []byte, n *treeNode, lead, childLead string) []byte {
	title := n.Title
	if n.State == task.Closed {
		title = io.Faint(title)
	}
	b = append(b, io.Faint(lead)...)
	b = append(b, ui.StateIcon(io, n.State)...)
	b = append(append(b, ' '), io.Cyan(n.ID)...)
	b = append(append(b, "  "...), title...)
	b = append(b, '\n')
	if n.State == task.AwaitingInput {
		bar := "    "
		if len(n.Children) > 0 {
			bar = "│   "
		}
		for _, q := range n.Task.OpenQuestions() {
			b = append(b, io.Faint(childLead+bar)...)
			b = append(append(b, io.Magenta("❓ "+firstLine(q.Question))...), '\n')
		}
	}
	for i, c := range n.Children {
		if i == len(n.Children)-1 {
			b = appendNode(io, b, c, childLead+"└── ", childLead+"    ")
		} else {
			b = appendNode(io, b, c, childLead+"├── ", childLead+"│   ")
		}
	}
	return b
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
