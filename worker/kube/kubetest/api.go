package kubetest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/bh-tracker/bh/worker/kube/kubeapi"
)

// REST is bh's own client of the test's cluster, loaded as the runner
// loads it (kubeapi.Client, through clientcmd) from the two files of
// Kubeconfig(t, ns): it fails the test unless the context's namespace
// came with it.
func (c *Cluster) REST(t testing.TB, ns string) kubeapi.API {
	t.Helper()
	t.Setenv("KUBECONFIG", c.Kubeconfig(t, ns))
	r, got, err := kubeapi.Client()
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
