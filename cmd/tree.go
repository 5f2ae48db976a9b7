package cmd

import (
	"fmt"

	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

type TreeOptions struct {
	base
	ID string
}

func newCmdTree(f *Factory, runF func(*TreeOptions) error) *cobra.Command {
	opts := &TreeOptions{}
	return &cobra.Command{
		Use:   "tree [<id>]",
		Short: "Show tasks as a tree of parents and children",
		Long: `Show every task under its parent, or only the subtree of the given task, with
a state icon each:

  ○ open   ◐ in_progress   ❓ awaiting_input   ⊘ blocked   ⏸ deferred   ✗ failed   ✓ closed

A waiting task's question is on the line below it. Tasks whose parent is
missing are shown at the top level. With --json, print nested task objects,
each with a "children" array.`,
		Example: `  bh tree
  bh tree a1b2 --json`,
		Args:              argsRange(0, 1, "at most one task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), argAt(args, 0)
			return runWith(runF, treeRun, opts)
		},
	}
}

func treeRun(opts *TreeOptions) error {
	defer opts.IO.Buffer()()
	s, err := opts.Store()
	if err != nil {
		return err
	}
	id := ""
	if opts.ID != "" {
		if id, err = s.Resolve(opts.ID); err != nil {
			return err
		}
	}
	return opts.memoView(s, "tree", func(list func() ([]*task.Task, error)) error {
		tasks, err := list()
		if err != nil {
			return err
		}
		warnCycles(opts.IO, opts.JSON, tasks)
		forest := buildForest(tasks)
		if id != "" {
			n := findNode(forest, id)
			if n == nil {
				_, err := s.Get(id) // unreadable: say why
				return err
			}
			if opts.JSON {
				return writeJSON(opts.IO.Out, n)
			}
			forest = []*treeNode{n}
		}
		if opts.JSON {
			return writeJSON(opts.IO.Out, forest)
		}
		if len(forest) == 0 && opts.IO.IsTTY {
			fmt.Fprintln(opts.IO.ErrOut, "no tasks yet: add one with bh add")
		}
		printTree(opts.IO, forest)
		return nil
	})
}

// treeNode is a task with its subtasks; in JSON the task's fields and a
// "children" array.
type treeNode struct {
	*task.Task
	Children []*treeNode `json:"children"`
}
