package cmd

import (
	"slices"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
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
		o.Store, o.Now = f.Store, f.Now
		if err := o.inRepo(); err != nil {
			return nil, none
		}
		_, t, err := o.load(args[0])
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
