package sandbox

import (
	"os"

	"github.com/bh-tracker/bh/agent/sandbox/egress"
	"github.com/bh-tracker/bh/agent/sandbox/egress/egresstest"
)

// The test binary is bh's network bridge when a sandbox starts it so
// (Egress.Bridge is this binary): before any test, and before TestMain.
func init() {
	if len(os.Args) > 1 && os.Args[1] == egress.Command {
		os.Exit(egresstest.Main(os.Args[2:], os.Stderr))
	}
}
