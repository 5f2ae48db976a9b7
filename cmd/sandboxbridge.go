package cmd

import (
	"github.com/bh-tracker/bh/agent/sandbox/egress"
	"github.com/spf13/cobra"
)

// quietExit is an exit code with nothing to say: the bridge's, which is
// its agent's, whose own output said it all.
type quietExit int

func (e quietExit) Error() string { return "" }

// newCmdSandboxBridge is the agent's parent inside the sandbox (package
// egress): hidden, since only the sandbox starts it, and its command
// line is egress's own (Bridge.Args), read as written.
func newCmdSandboxBridge(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:                egress.Command + " --socket PATH --listen ADDR [--forward ADDR]... -- COMMAND [ARG]...",
		Short:              "Carry a sandboxed agent's connections to bh's proxy (started by the sandbox)",
		Example:            "  bh sandbox-bridge --socket /tmp/bh-egress-1/proxy.sock --listen 127.0.0.1:3128 -- claude -p hello",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			b, err := egress.ParseArgs(args)
			if err != nil {
				return &usageError{err}
			}
			b.Stderr = f.IO.ErrOut
			if code := b.Run(); code != 0 {
				return quietExit(code)
			}
			return nil
		},
	}
}
