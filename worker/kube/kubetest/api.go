package kubetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/bh-tracker/bh/worker/kube/kubeapi"
	"github.com/bh-tracker/bh/worker/kube/kubeapi/remote"
)

// REST is bh's own client of the test's cluster, bh-kube, started as the
// runner starts it (remote.Connect; bh-kube built by BhKube), which loads
// the two files of Kubeconfig(t, ns) through clientcmd: it fails the test
// unless the context's namespace came with it.
func (c *Cluster) REST(t testing.TB, ns string) kubeapi.API {
	t.Helper()
	BhKube(t)
	t.Setenv("KUBECONFIG", c.Kubeconfig(t, ns))
	r, got, err := remote.Connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got != ns {
		t.Fatalf("kubetest: the context's namespace is %q, not %q", got, ns)
	}
	return r
}

// Kubeconfig writes what a user of the test's cluster has, as two files
// for KUBECONFIG (its value returned), which a client must merge: the
// first names the cluster, trusted through the API server's own
// certificate under a tls-server-name it holds, and a user who logs in
// through an exec plugin (a script that prints an ExecCredential whose
// token the API server's token file accepts); the second the current
// context, in namespace ns.
func (c *Cluster) Kubeconfig(t testing.TB, ns string) string {
	t.Helper()
	dir := t.TempDir()
	plugin := filepath.Join(dir, "plugin")
	script := fmt.Sprintf("#!/bin/sh\necho run >>%q\n"+
		`printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%%s"}}\n' %q`+"\n",
		plugin+".runs", c.plane.plugin)
	clusters := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: test
  cluster: {server: %q, certificate-authority: %q, tls-server-name: kubernetes.default.svc}
users:
- name: plugin
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: %q, interactiveMode: Never}
`, c.Config.Host, c.plane.file("certs/apiserver.crt"), plugin)
	contexts := fmt.Sprintf(`apiVersion: v1
kind: Config
contexts:
- name: other
  context: {cluster: test, user: plugin, namespace: elsewhere}
- name: test
  context: {cluster: test, user: plugin, namespace: %q}
current-context: test
`, ns)
	for name, content := range map[string]string{"plugin": script, "clusters": clusters, "contexts": contexts} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "clusters") + string(os.PathListSeparator) + filepath.Join(dir, "contexts")
}

// bhKubeDir holds the bh-kube BhKube built, until Main removes it.
var bhKubeDir string

var bhKube = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "bh-kube-")
	if err != nil {
		return "", err
	}
	bhKubeDir = dir
	out, err := exec.Command("go", "build", "-o", dir, "github.com/bh-tracker/bh/worker/kube/kubeapi/bh-kube").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("build bh-kube: %w\n%s", err, out)
	}
	return dir, nil
})

// BhKube builds bh-kube once per test binary and puts it first on PATH
// for t, where remote.Connect finds it.
func BhKube(t testing.TB) {
	t.Helper()
	dir, err := bhKube()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}
