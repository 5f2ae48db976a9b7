package agent

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"
)

// Tested is what bh knows of an agent CLI's releases: the range its tests
// ran the real CLI against, and releases it refuses.
type Tested struct {
	Name     string // the CLI, as messages name it
	Package  string // its npm package
	Min, Max string // the oldest and newest releases the tests passed on
	// Broken are releases bh refuses to run, each with why. Keep an entry
	// only while the release is still installable and known to break bh.
	Broken map[string]string
}

// The releases bh was tested with. Max is the release the end-to-end tests
// pin (agent/fakeapi installs it; a test checks that they agree); lower Min
// only after the suite has passed on that older release.
var (
	ClaudeTested = Tested{Name: "claude", Package: "@anthropic-ai/claude-code", Min: "2.1.330", Max: "2.1.330",
		Broken: map[string]string{}}
	CodexTested = Tested{Name: "codex", Package: "@openai/codex", Min: "0.169.0", Max: "0.169.0",
		Broken: map[string]string{}}
)

var semver = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(\d+)\.(\d+)\.(\d+)\b`) })

// release is the first x.y.z in a --version line ("2.1.330 (Claude Code)",
// "codex-cli 0.169.0"), and its numbers.
func release(line string) (string, [3]int, bool) {
	m := semver().FindStringSubmatch(line)
	if m == nil {
		return "", [3]int{}, false
	}
	var n [3]int
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	return m[0], n, true
}

// refuse is the CheckError for a known-broken release in line, else nil.
func (t Tested) refuse(line string) error {
	v, _, ok := release(line)
	why, broken := t.Broken[v]
	if !ok || !broken {
		return nil
	}
	return &CheckError{Reason: fmt.Sprintf("%s %s is known not to work with bh: %s", t.Name, v, why),
		Advice: "install the release bh was tested with: " + t.install()}
}

// install is the command that installs the newest tested release.
func (t Tested) install() string { return "npm install -g " + t.Package + "@" + t.Max }

// Warning says, for a --version line, how the release stands against the
// tested range: "" inside it, else a sentence for the user.
func (t Tested) Warning(line string) string {
	v, n, ok := release(line)
	if !ok {
		return fmt.Sprintf("cannot tell which %s release this is (--version said %q); bh was tested with %s",
			t.Name, line, t.span())
	}
	_, lo, _ := release(t.Min)
	_, hi, _ := release(t.Max)
	switch {
	case slices.Compare(n[:], lo[:]) < 0:
		return fmt.Sprintf("%s %s is older than the releases bh was tested with (%s); if runs fail, "+
			"install the tested release: %s",
			t.Name, v, t.span(), t.install())
	case slices.Compare(n[:], hi[:]) > 0:
		return fmt.Sprintf("%s %s is newer than the releases bh was tested with (%s); if runs fail, "+
			"install the tested release: %s", t.Name, v, t.span(), t.install())
	}
	return ""
}

func (t Tested) span() string {
	if t.Min == t.Max {
		return t.Max
	}
	return t.Min + " to " + t.Max
}
