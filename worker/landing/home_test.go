package landing

import (
	"fmt"
	"testing"

	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
)

// A worker's home stays its branch whatever the user checks out, and each
// other checkout (a detached HEAD too) is told of once.
func TestHomeStaysAndTellsOncePerSwitch(t *testing.T) {
	dir := gittest.Init(t, nil)
	r, err := git.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var told []string
	warnf := func(format string, args ...any) { told = append(told, fmt.Sprintf(format, args...)) }
	h := &Home{Branch: "main"}
	at := func(args ...string) {
		t.Helper()
		gittest.Git(t, dir, append([]string{"checkout", "-q"}, args...)...)
		for range 2 {
			if got := h.Of(r, warnf); got != "main" {
				t.Fatalf("home after checkout %v: %q", args, got)
			}
		}
	}
	at("main")
	at("-b", "feature")
	at("--detach")
	at("main")
	at("feature")
	want := []string{"you checked out feature: this worker goes on landing on main, the branch it started on (stop it and start it on feature to land there)",
		"you checked out a detached HEAD: this worker goes on landing on main, the branch it started on (stop it and start it on a branch to land there)",
		"you checked out feature: this worker goes on landing on main, the branch it started on (stop it and start it on feature to land there)"}
	if fmt.Sprint(told) != fmt.Sprint(want) {
		t.Errorf("told:\n%q\nwant:\n%q", told, want)
	}
	if got := (&Home{}).Of(r, warnf); got != "" {
		t.Errorf("no home: %q", got)
	}
}
