package cmd

import (
	"os"

	"github.com/bh-tracker/bh/agent/sandbox/gocache"
	"github.com/spf13/cobra"
)

// newCmdSandboxGocache is a sandboxed run's Go build cache (package
// gocache), which go starts inside the sandbox: hidden, like the bridge.
func newCmdSandboxGocache(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     gocache.Command + " USER-GOCACHE OWN-FOLDER",
		Short:   "Serve a sandboxed run's Go build cache over the user's (started by go in the sandbox)",
		Hidden:  true,
		Example: `  GOCACHEPROG="bh sandbox-gocache ~/.cache/go-build $RUN/cache/go-build" go build ./...`,
		Args:    cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			// go's own pipes, as they are: Out would filter the protocol as text.
			if code := gocache.Main(args, os.Stdin, os.Stdout, f.IO.ErrOut); code != 0 {
				return quietExit(code)
			}
			return nil
		},
	}
}
