// Package egresstest lets a test binary stand in for bh inside a sandbox:
// bh's own sandbox-bridge command (cmd) does the same through cobra.
package egresstest

import (
	"fmt"
	"io"

	"github.com/bh-tracker/bh/agent/sandbox/egress"
)

// Main runs the bridge args describe (its command line after its name,
// egress.Command) and returns its exit code.
func Main(args []string, stderr io.Writer) int {
	b, err := egress.ParseArgs(args)
	if err != nil {
		fmt.Fprintln(stderr, "bh "+egress.Command+":", err)
		return 2
	}
	b.Stderr = stderr
	return b.Run()
}
