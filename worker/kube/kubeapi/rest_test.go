package kubeapi

import (
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	SandboxClaims = Resource{Group: "extensions.agents.x-k8s.io", Version: "v1beta1", Resource: "sandboxclaims"}
	Sandboxes     = Resource{Group: "agents.x-k8s.io", Version: "v1beta1", Resource: "sandboxes"}
	Pods          = Resource{Version: "v1", Resource: "pods"}
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
		status := func(code int, msg string) {
			w.WriteHeader(code)
			json.NewEncoder(w).Encode(map[string]any{"kind": "Status", "status": "Failure", "message": msg, "code": code})
		}
		claims := "/apis/extensions.agents.x-k8s.io/v1beta1/namespaces/bh/sandboxclaims"
		switch {
		case r.Method == http.MethodPost && r.URL.Path == claims:
			var obj map[string]any
			if json.NewDecoder(r.Body).Decode(&obj) != nil || String(obj, "metadata", "name") != "c1" {
				status(http.StatusBadRequest, "bad object")
				return
			}
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(obj)
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/namespaces/bh/pods/p1":
			w.Write([]byte(`{"kind":"Pod","status":{"phase":"Running"}}`))
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

// TestRESTFromKubeconfig: a kubeconfig's current context gives the
// server, its CA (the client trusts it and nothing else) and the token;
// a 404 is ErrNotFound, a refusal carries the server's message.
func TestRESTFromKubeconfig(t *testing.T) {
	srv, tokens := apiServer(t)
	dir := t.TempDir()
	kc := `apiVersion: v1
kind: Config
current-context: here
contexts:
- name: other
  context: {cluster: nowhere, user: nobody}
- name: here
  context: {cluster: c, user: u}
clusters:
- name: c
  cluster:
    server: ` + srv.URL + `
    certificate-authority-data: ` + base64.StdEncoding.EncodeToString(caPEM(srv)) + `
users:
- name: u
  user: {token: sekrit}
`
	write(t, dir, "config", kc)
	t.Setenv("KUBECONFIG", filepath.Join(dir, "config")+string(os.PathListSeparator)+filepath.Join(dir, "absent"))
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	c, err := Client()
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if err := c.Create(ctx, SandboxClaims, "bh", map[string]any{"metadata": map[string]any{"name": "c1"}}); err != nil {
		t.Fatalf("create: %v", err)
	}
	p, err := c.Get(ctx, Pods, "bh", "p1")
	if err != nil || String(p, "status", "phase") != "Running" {
		t.Fatalf("get: %v %v", p, err)
	}
	if _, err := c.Get(ctx, Sandboxes, "bh", "s1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get a missing sandbox: %v", err)
	}
	if err := c.Delete(ctx, SandboxClaims, "bh", "c1"); err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "no delete for you") {
		t.Fatalf("a refused delete: %v", err)
	}
	if strings.Join(*tokens, ",") != "sekrit,sekrit,sekrit,sekrit" {
		t.Fatalf("tokens sent: %v", *tokens)
	}

	write(t, dir, "config", strings.Replace(kc, "certificate-authority-data: ", "certificate-authority-data: x", 1))
	if _, err := Client(); err == nil {
		t.Fatal("a broken CA was taken")
	}
	write(t, dir, "other.crt", "not a certificate")
	write(t, dir, "config", strings.Replace(kc, "certificate-authority-data: "+base64.StdEncoding.EncodeToString(caPEM(srv)),
		"certificate-authority: other.crt", 1))
	if _, err := Client(); err == nil || !strings.Contains(err.Error(), "no PEM") {
		t.Fatalf("a CA file of no certificate: %v", err)
	}
}

// TestRESTUntrustedServer: without the server's CA the client refuses it.
func TestRESTUntrustedServer(t *testing.T) {
	srv, tokens := apiServer(t)
	c, err := restFor(srv.URL, nil, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(t.Context(), Pods, "bh", "p1"); err == nil || len(*tokens) != 0 {
		t.Fatalf("an untrusted server was asked: %v", err)
	}
}

// TestRESTInCluster: in a pod, the service account's CA and token, the
// token read again when it rotates.
func TestRESTInCluster(t *testing.T) {
	srv, tokens := apiServer(t)
	sa := t.TempDir()
	serviceAccount = sa
	t.Cleanup(func() { serviceAccount = "/var/run/secrets/kubernetes.io/serviceaccount" })
	write(t, sa, "ca.crt", string(caPEM(srv)))
	write(t, sa, "token", "one\n")
	host, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "https://"))
	t.Setenv("KUBERNETES_SERVICE_HOST", host)
	t.Setenv("KUBERNETES_SERVICE_PORT", port)
	t.Setenv("KUBECONFIG", filepath.Join(sa, "absent"))
	c, err := Client()
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{"one", "two"} {
		write(t, sa, "token", tok+"\n")
		if _, err := c.Get(t.Context(), Pods, "bh", "p1"); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Join(*tokens, ",") != "one,two" {
		t.Fatalf("tokens sent: %v", *tokens)
	}
}

// TestKubeconfigPluginUser: a user logging in through an exec or
// auth-provider plugin is refused, saying what to use instead.
func TestKubeconfigPluginUser(t *testing.T) {
	for _, user := range []string{"exec: {command: gke-gcloud-auth-plugin}", "auth-provider: {name: oidc}"} {
		dir := t.TempDir()
		write(t, dir, "config", `current-context: x
contexts: [{name: x, context: {cluster: c, user: u}}]
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {`+user+`}}]
`)
		_, err := fromKubeconfig(filepath.Join(dir, "config"))
		if err == nil || !strings.Contains(err.Error(), "token, tokenFile or client certificate") {
			t.Fatalf("%s: %v", user, err)
		}
	}
	dir := t.TempDir()
	write(t, dir, "config", "current-context: gone\n")
	if _, err := fromKubeconfig(filepath.Join(dir, "config")); err == nil || !strings.Contains(err.Error(), `no context "gone"`) {
		t.Fatalf("a missing context: %v", err)
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
