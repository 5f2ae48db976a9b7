package cmd

import (
	"github.com/spf13/cobra"
)

func newCmdCompletion(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish",
		Short: "Print a shell completion script",
		Long:  "Print the completion script for your shell. Task ids complete with their titles.",
		Example: `  source <(bh completion bash)
  bh completion zsh > "${fpath[1]}/_bh"
  bh completion fish > ~/.config/fish/completions/bh.fish`,
		ValidArgs: []string{"bash", "zsh", "fish"},
		Args:      argsRange(1, 1, "shell: bash, zsh or fish"),
		RunE: func(c *cobra.Command, args []string) error {
			root, out := c.Root(), f.IO.Out
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, true)
			case "zsh":
				return root.GenZshCompletion(out)
			case "fish":
				return root.GenFishCompletion(out, true)
			}
			return usageErrorf("unknown shell %q (want bash, zsh or fish)", args[0])
		},
	}
}
