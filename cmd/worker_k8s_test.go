package cmd

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkerK8sWithoutBhKube: runner: k8s needs bh-kube, the Kubernetes
// client bh starts apart; without it beside bh or on PATH the worker
// cannot start (exit 3) and says how to build it.
func TestWorkerK8sWithoutBhKube(t *testing.T) {
	dir := t.TempDir()
	repoE2E(t, dir, "runner: k8s\nremote: origin\nautoSync: 30s\n")
	gitE2E(t, dir, "remote", "add", "origin", filepath.Join(t.TempDir(), "none.git"))
	t.Setenv("PATH", t.TempDir()+string(filepath.ListSeparator)+"/usr/bin:/bin")
	f := newFactory()
	var errOut fmt.Stringer
	f.IO, _, _, errOut = testIO()
	f.WorkDir = func() (string, error) { return dir, nil }
	code := run(f, []string{"worker", "--once"})
	if code != exitCannotStart || !strings.Contains(errOut.String(), "bh-kube") || !strings.Contains(errOut.String(), "go build") {
		t.Fatalf("worker without bh-kube: exit %d\n%s", code, errOut)
	}
}
