package act

import (
	"testing"

	"github.com/bh-tracker/bh/task"
)

// A comment goes on a line the change's diff shows, of a file it changed;
// anything else is refused saying what the change holds.
func TestOffChange(t *testing.T) {
	lines := map[string][]int{"README.md": {1, 2, 3}, "docs/café.md": {2, 4, 5, 6}}
	for c, want := range map[task.LineComment]string{
		{Path: "README.md", Line: 2}:     "",
		{Path: " docs/café.md", Line: 6}: "",
		{Path: "README.md", Line: 999}:   "line 999 is not in tm-a's change, which shows lines 1-3 of README.md",
		{Path: "docs/café.md", Line: 3}:  "line 3 is not in tm-a's change, which shows lines 2, 4-6 of docs/café.md",
		{Path: "nosuch.md", Line: 1}:     "nosuch.md is not a file of tm-a's change, whose files are README.md, docs/café.md",
	} {
		if got := offChange(lines, c, "tm-a"); got != want {
			t.Errorf("%+v: %q, want %q", c, got, want)
		}
	}
	if got := offChange(nil, task.LineComment{Path: "a", Line: 1}, "tm-a"); got != "tm-a has no change to comment on" {
		t.Errorf("no change: %q", got)
	}
}
