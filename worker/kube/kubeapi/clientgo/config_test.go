package clientgo

import (
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bh-tracker/bh/worker/kube/kubeapi"
)

var (
	SandboxClaims = kubeapi.Resource{Group: "extensions.agents.x-k8s.io", Version: "v1beta1", Resource: "sandboxclaims"}
	Sandboxes     = kubeapi.Resource{Group: "agents.x-k8s.io", Version: "v1beta1", Resource: "sandboxes"}
	Pods          = kubeapi.Resource{Version: "v1", Resource: "pods"}
)

// apiServer is a TLS server answering as kube-apiserver does for one
// SandboxClaim and one Pod, to requests bearing a token it records.
func apiServer(t *testing.T) (*httptest.Server, *[]string) {
	var mu sync.Mutex
	var tokens []string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		tokens = append(tokens, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		status := func(code int, msg string) {
			w.WriteHeader(code)
			json.NewEncoder(w).Encode(map[string]any{"apiVersion": "v1", "kind": "Status", "status": "Failure", "message": msg, "code": code})
		}
		claims := "/apis/extensions.agents.x-k8s.io/v1beta1/namespaces/bh/sandboxclaims"
		switch {
		case r.Method == http.MethodPost && r.URL.Path == claims:
			var obj map[string]any
			if json.NewDecoder(r.Body).Decode(&obj) != nil || kubeapi.String(obj, "metadata", "name") != "c1" {
				status(http.StatusBadRequest, "bad object")
				return
			}
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(obj)
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/namespaces/bh/pods/p1":
			w.Write([]byte(`{"apiVersion":"v1","kind":"Pod","status":{"phase":"Running"}}`))
		case r.Method == http.MethodDelete && r.URL.Path == claims+"/c1":
			status(http.StatusForbidden, `sandboxclaims "c1" is forbidden: no delete for you`)
		default:
			status(http.StatusNotFound, r.URL.Path+" not found")
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &tokens
}

func caPEM(srv *httptest.Server) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
}

// TestClientFromKubeconfig: every KUBECONFIG file merged (a missing one
// skipped): the current context gives the server, its CA (the client
// trusts it and nothing else), the token and the namespace; a 404 is
// kubeapi.ErrNotFound, a refusal carries the server's message.
func TestClientFromKubeconfig(t *testing.T) {
	srv, tokens := apiServer(t)
	dir := t.TempDir()
	clusters := `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: ` + srv.URL + `
    certificate-authority-data: ` + base64.StdEncoding.EncodeToString(caPEM(srv)) + `
users:
- name: u
  user: {token: sekrit}
`
	write(t, dir, "clusters", clusters)
	write(t, dir, "contexts", `apiVersion: v1
kind: Config
current-context: here
contexts:
- name: other
  context: {cluster: nowhere, user: nobody}
- name: here
  context: {cluster: c, user: u, namespace: team}
`)
	kubeconfig(t, dir, "clusters", "absent", "contexts")
	c, ns, err := Client()
	if err != nil {
		t.Fatal(err)
	}
	if ns != "team" {
		t.Fatalf("the context's namespace: %q", ns)
	}
	ctx := t.Context()
	if err := c.Create(ctx, SandboxClaims, "bh", map[string]any{"apiVersion": SandboxClaims.APIVersion(), "kind": "SandboxClaim",
		"metadata": map[string]any{"name": "c1"}}); err != nil {
		t.Fatalf("create: %v", err)
	}
	p, err := c.Get(ctx, Pods, "bh", "p1")
	if err != nil || kubeapi.String(p, "status", "phase") != "Running" {
		t.Fatalf("get: %v %v", p, err)
	}
	if _, err := c.Get(ctx, Sandboxes, "bh", "s1"); !errors.Is(err, kubeapi.ErrNotFound) {
		t.Fatalf("get a missing sandbox: %v", err)
	}
	if err := c.Delete(ctx, SandboxClaims, "bh", "c1"); err == nil || errors.Is(err, kubeapi.ErrNotFound) || !strings.Contains(err.Error(), "no delete for you") {
		t.Fatalf("a refused delete: %v", err)
	}
	if strings.Join(*tokens, ",") != "sekrit,sekrit,sekrit,sekrit" {
		t.Fatalf("tokens sent: %v", *tokens)
	}

	write(t, dir, "clusters", strings.Replace(clusters, "certificate-authority-data: ", "certificate-authority-data: x", 1))
	if _, _, err := Client(); err == nil {
		t.Fatal("a broken CA was taken")
	}
}

// TestClientUntrustedServer: without the server's CA the client refuses it.
func TestClientUntrustedServer(t *testing.T) {
	srv, tokens := apiServer(t)
	dir := t.TempDir()
	write(t, dir, "config", `current-context: x
contexts: [{name: x, context: {cluster: c, user: u}}]
clusters: [{name: c, cluster: {server: "`+srv.URL+`"}}]
users: [{name: u, user: {token: sekrit}}]
`)
	kubeconfig(t, dir, "config")
	c, ns, err := Client()
	if err != nil || ns != "" {
		t.Fatalf("%q %v", ns, err)
	}
	if _, err := c.Get(t.Context(), Pods, "bh", "p1"); err == nil || len(*tokens) != 0 {
		t.Fatalf("an untrusted server was asked: %v", err)
	}
}

// TestKubeconfigExecPlugin: a user who logs in through an exec plugin
// (as on EKS, GKE and AKS) sends the token the plugin prints.
func TestKubeconfigExecPlugin(t *testing.T) {
	srv, tokens := apiServer(t)
	dir := t.TempDir()
	write(t, dir, "plugin", `#!/bin/sh
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-plugin"}}'
`)
	os.Chmod(filepath.Join(dir, "plugin"), 0o700)
	write(t, dir, "config", `current-context: x
contexts: [{name: x, context: {cluster: c, user: u}}]
clusters: [{name: c, cluster: {server: "`+srv.URL+`", certificate-authority-data: `+base64.StdEncoding.EncodeToString(caPEM(srv))+`}}]
users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: `+filepath.Join(dir, "plugin")+`, interactiveMode: Never}}}]
`)
	kubeconfig(t, dir, "config")
	c, _, err := Client()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(t.Context(), Pods, "bh", "p1"); err != nil {
		t.Fatal(err)
	}
	if strings.Join(*tokens, ",") != "from-plugin" {
		t.Fatalf("tokens sent: %v", *tokens)
	}
}

// TestKubeconfigProxyAndServerName: the cluster's proxy-url carries the
// requests (an HTTP CONNECT proxy here), and its tls-server-name is the
// name the server's certificate is checked against (the test server's
// holds example.com, not localhost).
func TestKubeconfigProxyAndServerName(t *testing.T) {
	srv, tokens := apiServer(t)
	var mu sync.Mutex
	var tunnels []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		mu.Lock()
		tunnels = append(tunnels, r.Host)
		mu.Unlock()
		up, err := net.Dial("tcp", r.Host)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusOK)
		down, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			up.Close()
			return
		}
		go func() { io.Copy(up, down); up.Close() }()
		io.Copy(down, up)
		down.Close()
	}))
	t.Cleanup(proxy.Close)
	server := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	dir := t.TempDir()
	config := `current-context: x
contexts: [{name: x, context: {cluster: c, user: u}}]
clusters: [{name: c, cluster: {server: "` + server + `", proxy-url: "` + proxy.URL + `", tls-server-name: example.com,
  certificate-authority-data: ` + base64.StdEncoding.EncodeToString(caPEM(srv)) + `}}]
users: [{name: u, user: {token: sekrit}}]
`
	write(t, dir, "config", config)
	kubeconfig(t, dir, "config")
	c, _, err := Client()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(t.Context(), Pods, "bh", "p1"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	via := slices.Clone(tunnels)
	mu.Unlock()
	// client-go may open a second connection while the first is being
	// made: every one must go through the proxy, to the server.
	host := strings.TrimPrefix(server, "https://")
	if len(*tokens) == 0 || slices.ContainsFunc(*tokens, func(tok string) bool { return tok != "sekrit" }) ||
		len(via) == 0 || slices.ContainsFunc(via, func(h string) bool { return h != host }) {
		t.Fatalf("tokens %v, tunnels %v, want every tunnel to %s", *tokens, via, host)
	}
	write(t, dir, "config", strings.Replace(config, "tls-server-name: example.com,", "", 1))
	if c, _, err = Client(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(t.Context(), Pods, "bh", "p1"); err == nil {
		t.Fatal("a server whose certificate does not name it was trusted")
	}
}

// kubeconfig points KUBECONFIG at dir's files, and away from a pod's
// service account.
func kubeconfig(t *testing.T, dir string, files ...string) {
	for i, f := range files {
		files[i] = filepath.Join(dir, f)
	}
	t.Setenv("KUBECONFIG", strings.Join(files, string(os.PathListSeparator)))
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
