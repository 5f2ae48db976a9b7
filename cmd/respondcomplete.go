package cmd

import (
	"slices"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/spf13/cobra"
)

// completeChoices completes bh respond <id> --choice with the option labels
// of the choice questions the task waits on (only question N with
// --question N), each described by its option's description. Labels
// already picked are left out, for the next --choice of a multi-select.
func completeChoices(f *Factory, o *RespondOptions) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		const none = cobra.ShellCompDirectiveNoFileComp
		if len(args) == 0 {
			return nil, none
		}
		st := f.Store
		if o.Repo != "" {
			dir, err := registeredRepo(o.Repo)
			if err != nil {
				return nil, none
			}
			st = func() (*store.Store, error) { return store.Find(dir) }
		}
		s, err := st()
		if err != nil {
			return nil, none
		}
		id, err := s.Resolve(args[0])
		if err != nil {
			return nil, none
		}
		t, err := s.Get(id)
		if err != nil {
			return nil, none
		}
		qs, err := targets(t, o.Question)
		if err != nil {
			return nil, none
		}
		var out []string
		seen := map[string]bool{}
		for _, q := range qs {
			if q.Kind() != task.ChoiceQuestion {
				continue
			}
			for _, opt := range q.Options {
				if seen[opt.Label] || slices.Contains(o.Choices, opt.Label) {
					continue
				}
				seen[opt.Label] = true
				c := opt.Label
				if opt.Description != "" {
					c += "\t" + ui.Flatten(opt.Description)
				}
				out = append(out, c)
			}
		}
		return out, none
	}
}
