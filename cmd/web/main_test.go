package web

import (
	"github.com/bh-tracker/bh/agent/fakeapi"
	"os"
	"testing"
)

// TestMain runs the tests in a home of their own (fakeapi.Isolated).
func TestMain(m *testing.M) { os.Exit(fakeapi.Isolated(m.Run)) }
