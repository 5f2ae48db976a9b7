package sandbox

import (
	"os"

	"github.com/bh-tracker/bh/agent/sandbox/egress"
)

// The test binary is bh's network bridge when a sandbox starts it so
// (Egress.Bridge is this binary): before any test, and before TestMain.
func init() {
	if len(os.Args) > 1 && os.Args[1] == egress.Command {
		os.Exit(egress.Main(os.Args[2:], os.Stderr))
	}
}
