package manifests

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// TestContainerfileBuildsThisModule: the build stage's Go is the
// module's, and it copies every top-level folder of Go sources (a new
// one would otherwise break only the image's build).
func TestContainerfileBuildsThisModule(t *testing.T) {
	b, err := os.ReadFile("../Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if goVersion == nil || !strings.Contains(string(b), "golang:"+string(goVersion[1])+"-") {
		t.Errorf("the build stage is not Go %s, the module's", goVersion)
	}
	entries, err := os.ReadDir("../../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !e.IsDir() && name != "main.go" {
			continue
		}
		if gos, _ := filepath.Glob(filepath.Join("../../..", name, "*.go")); e.IsDir() && len(gos) == 0 {
			continue
		}
		if !regexp.MustCompile(`(?m)^COPY (.* )?` + regexp.QuoteMeta(name) + `( |$)`).Match(b) {
			t.Errorf("the Containerfile does not copy %s", name)
		}
	}
}
