package attempts

import (
	"os"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
)

// TestMain runs the tests in a home of their own (fakeapi.Isolated).
func TestMain(m *testing.M) { os.Exit(fakeapi.Isolated(m.Run)) }
