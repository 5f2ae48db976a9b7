package manifests

import (
	"os"
	"regexp"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
)

// TestContainerfilePinsTheTestedCLIs: the image installs the claude and
// codex releases the end-to-end tests run, so they cannot drift apart.
func TestContainerfilePinsTheTestedCLIs(t *testing.T) {
	b, err := os.ReadFile("../Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	for arg, want := range map[string]string{"CLAUDE_VERSION": fakeapi.ClaudeVersion, "CODEX_VERSION": fakeapi.CodexVersion} {
		m := regexp.MustCompile(`(?m)^ARG ` + arg + `=(\S+)$`).FindSubmatch(b)
		if m == nil || string(m[1]) != want {
			t.Errorf("the Containerfile's %s: %q, the tests run %s", arg, m, want)
		}
	}
	// What the image installs is bh's own advice to users.
	for _, pkg := range []agent.Tested{agent.ClaudeTested, agent.CodexTested} {
		if !regexp.MustCompile(regexp.QuoteMeta(pkg.Package) + `@\$\{\w+_VERSION\}`).Match(b) {
			t.Errorf("the Containerfile does not install %s at its pinned version", pkg.Package)
		}
	}
}
