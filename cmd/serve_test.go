package cmd

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd/web"
	"github.com/bh-tracker/bh/task/config"
)

// bh serve over TLS: the address saved for notifications is https, the
// page answers over TLS only, and the token's cookie is Secure.
func TestServeTLS(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	certFile, keyFile, pool := selfSigned(t, dir)
	conf := serveInProcess(t, dir, &ServeOptions{Listen: "127.0.0.1:0", TLSCert: certFile, TLSKey: keyFile})
	if !strings.HasPrefix(conf.URL, "https://127.0.0.1:") || len(conf.Token) != 48 {
		t.Fatalf("saved %+v", conf)
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(conf.URL + "/?token=" + conf.Token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ck := resp.Cookies(); resp.StatusCode != http.StatusSeeOther || len(ck) != 1 || !ck[0].Secure || !ck[0].HttpOnly {
		t.Fatalf("%d, cookies %+v", resp.StatusCode, ck)
	}
	if resp, err := http.Get("http" + strings.TrimPrefix(conf.URL, "https") + "/"); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest { // Go's answer to plain HTTP on a TLS port
			t.Errorf("plain HTTP on the TLS port: %d", resp.StatusCode)
		}
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// the pool that trusts it.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// serveInProcess runs bh serve with opts in dir until the test ends, and
// returns the web config it saved once it listens.
func serveInProcess(t *testing.T, dir string, opts *ServeOptions) config.WebConfig {
	t.Helper()
	f := newFactory()
	f.IO, _, _, _ = testIO()
	f.WorkDir = func() (string, error) { return dir, nil }
	ctx, stop := context.WithCancel(context.Background())
	opts.base, opts.Ctx, opts.Inbox = f.base(), ctx, web.Inbox
	done := make(chan error, 1)
	go func() { done <- serveRun(opts) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("bh serve stopped with %v", err)
		}
	})
	var conf config.WebConfig
	for deadline := time.Now().Add(fakeapi.Patience(10 * time.Second)); conf.URL == ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("bh serve saved no address")
		}
		conf, _ = config.LoadWebConfig()
	}
	return conf
}
