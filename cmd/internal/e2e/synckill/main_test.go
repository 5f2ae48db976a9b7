// Package synckill holds the tests that kill bh sync at each of its git
// calls and hold git's locks across them (synckill_test.go): heavy
// end-to-end tests, in a test binary of their own.
package synckill

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
