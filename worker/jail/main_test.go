package jail

import (
	"os"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/agent/sandbox/gocache"
)

// TestMain runs the tests in a home of their own (fakeapi.Isolated):
// bh's state dir, where the runs' caches go, is theirs.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == gocache.Command { // go in a sandbox starting its build cache
		os.Exit(gocache.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(fakeapi.Isolated(m.Run))
}
