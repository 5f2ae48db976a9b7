package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/spf13/cobra"
)

// argsRange checks the number of arguments; a wrong count is a usage error.
func argsRange(min, max int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		switch {
		case len(args) < min:
			return usageErrorf("missing %s", what)
		case max >= 0 && len(args) > max:
			return usageErrorf("too many arguments (want %s)", what)
		}
		return nil
	}
}

// argAt is args[i], or "" when there are fewer arguments.
func argAt(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

// completeIDs completes the first n arguments with the ids of tasks that
// keep (all tasks when nil), each described by its title.
func completeIDs(f *Factory, n int, keep func(*task.Task) bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		if len(args) >= n {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return taskCompletions(f, prefix, keep), cobra.ShellCompDirectiveNoFileComp
	}
}

func taskCompletions(f *Factory, prefix string, keep func(*task.Task) bool) []string {
	s, err := f.Store()
	if err != nil {
		return nil
	}
	tasks, _, err := s.List()
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range tasks {
		if strings.HasPrefix(t.ID, prefix) && (keep == nil || keep(t)) {
			out = append(out, t.ID+"\t"+t.Title)
		}
	}
	return out
}

// completeFlagIDs completes a flag that takes a task id.
func completeFlagIDs(c *cobra.Command, f *Factory, names ...string) {
	for _, name := range names {
		_ = c.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
			return taskCompletions(f, prefix, nil), cobra.ShellCompDirectiveNoFileComp
		})
	}
}

// completeEnums completes the flags that take a type, priority, size or state.
func completeEnums(c *cobra.Command) {
	enums := map[string][]string{
		"type":     strs(task.Types),
		"priority": strs(task.Priorities),
		"size":     strs(task.Sizes),
		"state":    strs(task.States),
	}
	for name, values := range enums {
		if c.Flags().Lookup(name) != nil {
			_ = c.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
		}
	}
}

func strs[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// parseEnum validates a flag's value with one of task's parsers; a bad
// value is a usage error.
func parseEnum[T any](flag, value string, parse func(string) (T, error)) (T, error) {
	v, err := parse(value)
	if err != nil {
		return v, usageErrorf("--%s: %w", flag, err)
	}
	return v, nil
}

// resolveAll turns the user's references into task ids, in order, once each.
func resolveAll(s *store.Store, what string, refs []string) ([]string, error) {
	var ids []string
	for _, r := range refs {
		id, err := s.Resolve(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// cleanLabels trims labels and drops empty and repeated ones.
func cleanLabels(in []string) []string {
	var out []string
	for _, l := range in {
		if l = strings.TrimSpace(l); l != "" && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// notState keeps, for completion, the tasks in none of states.
func notState(states ...task.State) func(*task.Task) bool {
	return func(t *task.Task) bool { return !slices.Contains(states, t.State) }
}
