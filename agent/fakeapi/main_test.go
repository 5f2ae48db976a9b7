package fakeapi

import (
	"os"
	"testing"
)

// TestMain runs the tests in a home of their own (fakeapi.Isolated).
func TestMain(m *testing.M) { os.Exit(Isolated(m.Run)) }
