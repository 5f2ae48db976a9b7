package cmd

import (
	"slices"

	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

type ListOptions struct {
	base
	All        bool
	Ready      bool
	Awaiting   bool
	Review     bool
	InReview   bool // --review: pull requests in review (land: pr)
	States     []string
	Types      []string
	Priorities []string
	Labels     []string
	Parent     string
}

func newCmdList(f *Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{}
	c := &cobra.Command{
		Use:   "list",
		Short: "List tasks",
		Long: `List tasks in queue order: priority, then age. Closed tasks are hidden unless
--all, --state or --needs-review asks for them. Filters combine: a task must pass them all.

--awaiting shows each question waiting for you, with its context and when it
was asked; answer one with bh respond. When stdout is not a terminal, each task
is one tab-separated line; use --json for every field.`,
		Aliases: []string{"ls"},
		Example: `  bh list
  bh list --awaiting
  bh list --state failed,blocked --priority P0
  bh list --label backend --json`,
		Args: argsRange(0, 0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			opts.base = f.base()
			return runWith(runF, listRun, opts)
		},
	}
	fl := c.Flags()
	fl.BoolVarP(&opts.All, "all", "a", false, "include closed tasks")
	fl.BoolVar(&opts.Ready, "ready", false, "only tasks the worker may take now, in its order")
	fl.BoolVar(&opts.Awaiting, "awaiting", false, "only tasks waiting for your answer, with their questions")
	fl.BoolVar(&opts.InReview, "review", false, "only tasks whose pull request is in review (land: pr)")
	fl.BoolVar(&opts.Review, "needs-review", false, "only tasks marked for review, closed ones too")
	fl.StringSliceVar(&opts.States, "state", nil, "only these states (repeatable or comma-separated)")
	fl.StringSliceVar(&opts.Types, "type", nil, "only these types")
	fl.StringSliceVar(&opts.Priorities, "priority", nil, "only these priorities")
	fl.StringArrayVar(&opts.Labels, "label", nil, "only tasks with this label (repeatable: all must match)")
	fl.StringVar(&opts.Parent, "parent", "", "only the children of this task")
	completeEnums(c)
	completeFlagIDs(c, f, "parent")
	return c
}

func listRun(opts *ListOptions) error {
	if opts.Ready && opts.Awaiting {
		return usageErrorf("--ready and --awaiting cannot be used together")
	}
	defer opts.IO.Buffer()()
	keep, err := listFilter(opts)
	if err != nil {
		return err
	}
	s, err := opts.Store()
	if err != nil {
		return err
	}
	if opts.Parent != "" {
		p, err := s.Resolve(opts.Parent)
		if err != nil {
			return err
		}
		keep = append(keep, func(t *task.Task) bool { return t.Parent == p })
	}
	return opts.memoView(s, "list", func(list func() ([]*task.Task, error)) error {
		tasks, err := list()
		if err != nil {
			return err
		}
		if opts.Ready {
			tasks = task.Ready(tasks, opts.Now())
		}
		shown := make([]*task.Task, 0, len(tasks))
		for _, t := range tasks {
			if all(keep, t) {
				shown = append(shown, t)
			}
		}
		if !opts.Ready {
			task.SortQueue(shown) // shown is our own slice; filtering first sorts fewer
		}
		if opts.Awaiting {
			return printAwaiting(opts.base, shown)
		}
		return printTasks(opts.base, shown, "no tasks match")
	})
}

// listFilter turns the flags into tests a listed task must pass.
func listFilter(o *ListOptions) ([]func(*task.Task) bool, error) {
	states, err := parseAll("state", o.States, task.ParseState)
	if err != nil {
		return nil, err
	}
	types, err := parseAll("type", o.Types, task.ParseType)
	if err != nil {
		return nil, err
	}
	prios, err := parseAll("priority", o.Priorities, task.ParsePriority)
	if err != nil {
		return nil, err
	}
	keep := []func(*task.Task) bool{
		func(t *task.Task) bool { return len(types) == 0 || slices.Contains(types, t.Type) },
		func(t *task.Task) bool { return len(prios) == 0 || slices.Contains(prios, t.Priority) },
		func(t *task.Task) bool { return hasAll(t.Labels, o.Labels) },
		func(t *task.Task) bool { return !o.Review || t.NeedsReview },
	}
	switch {
	case o.Awaiting:
		keep = append(keep, func(t *task.Task) bool { return t.State == task.AwaitingInput })
	case o.InReview:
		keep = append(keep, func(t *task.Task) bool { return t.State == task.InReview })
	case len(states) > 0:
		keep = append(keep, func(t *task.Task) bool { return slices.Contains(states, t.State) })
	case !o.All && !o.Review: // work to review is mostly closed already
		keep = append(keep, func(t *task.Task) bool { return t.State != task.Closed })
	}
	return keep, nil
}

func parseAll[T any](flag string, values []string, parse func(string) (T, error)) ([]T, error) {
	out := make([]T, 0, len(values))
	for _, v := range values {
		p, err := parseEnum(flag, v, parse)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func all(tests []func(*task.Task) bool, t *task.Task) bool {
	for _, ok := range tests {
		if !ok(t) {
			return false
		}
	}
	return true
}

func hasAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
