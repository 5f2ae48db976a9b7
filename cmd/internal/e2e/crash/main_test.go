// Package crash holds the crash-point test of bh worker (crash_test.go):
// the heaviest of bh's end-to-end tests, in a test binary of its own.
package crash

import (
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
)

func TestMain(m *testing.M) {
	fakeapi.MemoryTemp() // no agent here runs in a sandbox
	e2e.Main(m, cmd.Main)
}

// bhE2E runs bh in a directory, as a program.
var bhE2E = e2e.Process
