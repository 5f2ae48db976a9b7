package kubeapi

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// serviceAccount is where a pod finds its service account's token and CA.
var serviceAccount = "/var/run/secrets/kubernetes.io/serviceaccount"

// Client is the cluster's API: in a pod, through its service account;
// elsewhere as KUBECONFIG (its first file; default ~/.kube/config) says.
func Client() (*REST, error) {
	if host, port := os.Getenv("KUBERNETES_SERVICE_HOST"), os.Getenv("KUBERNETES_SERVICE_PORT"); host != "" && port != "" {
		ca, err := os.ReadFile(filepath.Join(serviceAccount, "ca.crt"))
		if err != nil {
			return nil, fmt.Errorf("kubernetes: %w", err)
		}
		c, err := restFor("https://"+net.JoinHostPort(host, port), ca, false, nil)
		if err != nil {
			return nil, err
		}
		c.TokenFile = filepath.Join(serviceAccount, "token")
		return c, nil
	}
	path := filepath.SplitList(os.Getenv("KUBECONFIG"))
	if len(path) == 0 || path[0] == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("kubernetes: %w", err)
		}
		path = []string{filepath.Join(home, ".kube", "config")}
	}
	c, err := fromKubeconfig(path[0])
	if err != nil {
		return nil, fmt.Errorf("kubernetes: %s: %w", path[0], err)
	}
	return c, nil
}

// kubeconfig is what bh reads of a kubeconfig file.
type kubeconfig struct {
	CurrentContext string `yaml:"current-context"`
	Contexts       []named[struct{ Cluster, User string }]
	Clusters       []named[struct {
		Server   string
		CA       string `yaml:"certificate-authority"`
		CAData   string `yaml:"certificate-authority-data"`
		Insecure bool   `yaml:"insecure-skip-tls-verify"`
	}]
	Users []named[kubeUser]
}

type kubeUser struct {
	Token        string
	TokenFile    string    `yaml:"tokenFile"`
	Cert         string    `yaml:"client-certificate"`
	CertData     string    `yaml:"client-certificate-data"`
	Key          string    `yaml:"client-key"`
	KeyData      string    `yaml:"client-key-data"`
	Exec         yaml.Node `yaml:"exec"`
	AuthProvider yaml.Node `yaml:"auth-provider"`
}

// named is an entry of a kubeconfig's lists: contexts, clusters, users.
type named[T any] struct {
	Name string
	// The entry's content, under the list's singular key.
	Context, Cluster, User T
}

// find is list's entry called name.
func find[T any](list []named[T], what, name string) (named[T], error) {
	for _, e := range list {
		if e.Name == name {
			return e, nil
		}
	}
	return named[T]{}, fmt.Errorf("no %s %q", what, name)
}

// fromKubeconfig is the client of file's current context.
func fromKubeconfig(file string) (*REST, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var kc kubeconfig
	if err := yaml.Unmarshal(data, &kc); err != nil {
		return nil, err
	}
	x, err := find(kc.Contexts, "context", kc.CurrentContext)
	if err != nil {
		return nil, err
	}
	cl, err := find(kc.Clusters, "cluster", x.Context.Cluster)
	if err != nil {
		return nil, err
	}
	u, err := find(kc.Users, "user", x.Context.User)
	if err != nil && x.Context.User != "" {
		return nil, err
	}
	if !u.User.Exec.IsZero() || !u.User.AuthProvider.IsZero() {
		return nil, fmt.Errorf("user %s logs in through an exec or auth-provider plugin, which bh does not run: "+
			"give it a token, tokenFile or client certificate instead (e.g. a service account's token)", u.Name)
	}
	dir := filepath.Dir(file) // relative paths in it are relative to it
	ca, err := fileOrData(dir, cl.Cluster.CA, cl.Cluster.CAData)
	if err != nil {
		return nil, err
	}
	cert, err := clientCert(dir, u.User)
	if err != nil {
		return nil, err
	}
	c, err := restFor(cl.Cluster.Server, ca, cl.Cluster.Insecure, cert)
	if err != nil {
		return nil, err
	}
	c.Token, c.TokenFile = u.User.Token, abs(dir, u.User.TokenFile)
	return c, nil
}

// restFor is a client of server trusting ca (none: the system's roots),
// presenting cert if any.
func restFor(server string, ca []byte, insecure bool, cert *tls.Certificate) (*REST, error) {
	if server == "" {
		return nil, errors.New("the cluster has no server")
	}
	cfg := &tls.Config{InsecureSkipVerify: insecure}
	if len(ca) > 0 {
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(ca) {
			return nil, errors.New("the cluster's certificate authority holds no PEM certificate")
		}
	}
	if cert != nil {
		cfg.Certificates = []tls.Certificate{*cert}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = cfg
	// A bound on each request: a hung connection must not stall the runner's polling.
	return &REST{Host: server, HTTP: &http.Client{Transport: tr, Timeout: time.Minute}}, nil
}

// clientCert is the user's client certificate and key, if it has one.
func clientCert(dir string, u kubeUser) (*tls.Certificate, error) {
	cert, err := fileOrData(dir, u.Cert, u.CertData)
	if err != nil || cert == nil {
		return nil, err
	}
	key, err := fileOrData(dir, u.Key, u.KeyData)
	if err != nil {
		return nil, err
	}
	c, err := tls.X509KeyPair(cert, key)
	if err != nil {
		return nil, fmt.Errorf("client certificate: %w", err)
	}
	return &c, nil
}

// fileOrData is the base64 data if any, else the named file's content
// (relative to dir), else nil.
func fileOrData(dir, file, data string) ([]byte, error) {
	if data != "" {
		return base64.StdEncoding.DecodeString(strings.TrimSpace(data))
	}
	if file == "" {
		return nil, nil
	}
	return os.ReadFile(abs(dir, file))
}

func abs(dir, file string) string {
	if file == "" || filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(dir, file)
}
