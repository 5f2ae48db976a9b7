// Package realagent runs bh end to end with the real Claude Code and Codex
// CLIs against fake model APIs (agent/fakeapi): heavy tests, in a test
// binary of their own.
package realagent

import (
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/cmd"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m, cmd.Main) }

// bhE2E runs bh in a directory, as a program.
var bhE2E = e2e.Process

// sortedLines is s's lines, sorted.
func sortedLines(s string) []string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(l)
	return l
}
