package worker

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bh-tracker/bh/worker/doctor"

	"github.com/bh-tracker/bh/task/config"
)

// bh doctor --fix drops repositories that are gone from the user's
// registry, and keeps those still there.
func TestDoctorPrunesTheRegistry(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	s := newStore(t)
	gone := filepath.Join(t.TempDir(), "scratch")
	os.MkdirAll(filepath.Join(gone, ".bh"), 0o755)
	config.Register(s.Root)
	config.Register(gone)
	os.RemoveAll(gone)

	rep, err := runDoctor(s, true)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Problems() != 0 {
		t.Errorf("a gone repository is counted as this one's problem: %+v", rep.Findings)
	}
	if i := slices.IndexFunc(rep.Findings, func(f doctor.Finding) bool { return f.Check == "registry" }); i < 0 ||
		rep.Findings[i].Status != doctor.Fixed {
		t.Errorf("the registry is not fixed: %+v", rep.Findings)
	}
	if repos, _ := config.Registered(); !slices.Equal(repos, []string{s.Root}) {
		t.Errorf("the registry holds %q, want only %q", repos, s.Root)
	}
}
