package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// buildForest hangs each task under its parent, in queue order. Tasks with
// no parent, or a parent that is missing, are roots. Each task appears once,
// so a cycle of parents cannot loop: it is shown from its first task.
func buildForest(tasks []*task.Task) []*treeNode {
	sorted := slices.Clone(tasks)
	task.SortQueue(sorted)
	ix := task.NewIndex(tasks)
	kids := make(map[string][]*task.Task, len(tasks)/4)
	var roots []*task.Task
	for _, t := range sorted {
		if t.Parent == "" || t.Parent == t.ID || ix[t.Parent] == nil {
			roots = append(roots, t)
		} else {
			kids[t.Parent] = append(kids[t.Parent], t)
		}
	}
	seen := make(map[string]bool, len(tasks))
	var grow func(*task.Task) *treeNode
	grow = func(t *task.Task) *treeNode {
		seen[t.ID] = true
		n := &treeNode{Task: t, Children: []*treeNode{}}
		for _, c := range kids[t.ID] {
			if !seen[c.ID] {
				n.Children = append(n.Children, grow(c))
			}
		}
		return n
	}
	forest := []*treeNode{}
	for _, r := range roots {
		forest = append(forest, grow(r))
	}
	for _, t := range sorted {
		if !seen[t.ID] { // on a cycle of parents: reachable from no root
			forest = append(forest, grow(t))
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
	for _, n := range nodes {
		printNode(io, n, "", "")
	}
}

// printNode writes n after lead (the branch lines and its connector), and
// its children after childLead.
func printNode(io *IOStreams, n *treeNode, lead, childLead string) {
	title := n.Title
	if n.State == task.Closed {
		title = io.Faint(title)
	}
	fmt.Fprintf(io.Out, "%s%s %s  %s\n", io.Faint(lead), stateIcon(io, n.State), io.Cyan(n.ID), title)
	if n.State == task.AwaitingInput {
		bar := "    "
		if len(n.Children) > 0 {
			bar = "│   "
		}
		for _, q := range n.Task.OpenQuestions() {
			fmt.Fprintf(io.Out, "%s%s\n", io.Faint(childLead+bar), io.Magenta("❓ "+firstLine(q.Question)))
		}
	}
	for i, c := range n.Children {
		if i == len(n.Children)-1 {
			printNode(io, c, childLead+"└── ", childLead+"    ")
		} else {
			printNode(io, c, childLead+"├── ", childLead+"│   ")
		}
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
