package kubetest

import (
	"bytes"
	"cmp"
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestK8sManifestsAccepted applies what bh k8s manifests prints, in both
// modes, each to a namespace of its own (the stream creates it).
func TestK8sManifestsAccepted(t *testing.T) {
	c := Start(t)
	dir := t.TempDir()
	bh := filepath.Join(dir, "bh")
	if out, err := exec.Command("go", "build", "-o", bh, "github.com/bh-tracker/bh").CombinedOutput(); err != nil {
		t.Fatalf("go build bh: %v\n%s", err, out)
	}
	for _, mode := range []string{"", "pods"} { // the default mode, then a pod per task
		args := []string{"k8s", "manifests", "--namespace", c.Namespace + "-" + cmp.Or(mode, "workers"),
			"--remote", "https://git.example.com/acme/app.git", "--replicas", "2"}
		if mode != "" {
			args = append(args, "--mode", mode)
		}
		cmd := exec.Command(bh, args...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir, "HOME="+dir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bh %v: %v\n%s", args, err, stderr.Bytes())
		}
		c.Apply(t, out)
	}
	// The controller accepts the printed template too: it makes the pool's pod.
	c.WaitFor(t, "the printed warm pool's pod", func() bool {
		l, err := c.Dynamic.Resource(pods).Namespace(c.Namespace+"-pods").List(context.Background(),
			metav1.ListOptions{LabelSelector: "app.kubernetes.io/name=bh-task"})
		return err == nil && len(l.Items) == 1
	})
}
