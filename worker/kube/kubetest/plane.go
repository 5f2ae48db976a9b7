package kubetest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/bh-tracker/bh/agent/proc"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
)

// plane is the running control plane: its processes write their logs
// into dir, which stop removes.
type plane struct {
	dir    string
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	config *rest.Config
	plugin string // the token the exec plugin of Kubeconfig's user prints
	dyn    dynamic.Interface
	mapper *restmapper.DeferredDiscoveryRESTMapper
}

// binDir is where setup.sh puts the binaries and the CRDs' sources;
// BH_K8S_BIN lets another checkout use those already built.
func binDir() string {
	if d := os.Getenv("BH_K8S_BIN"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", ".cache", "k8s", "bin")
}

func startPlane() (*plane, error) {
	bin := binDir()
	for _, b := range []string{"kube-apiserver", "agent-sandbox-controller", "crds"} {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			return nil, fmt.Errorf("kubetest: %s missing from %s: run worker/kube/kubetest/setup.sh", b, bin)
		}
	}
	if _, err := exec.LookPath("etcd"); err != nil {
		return nil, fmt.Errorf("kubetest: no etcd (Debian's etcd-server): run worker/kube/kubetest/setup.sh as root")
	}
	dir, err := os.MkdirTemp("", "kubetest-")
	if err != nil {
		return nil, err
	}
	p := &plane{dir: dir}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	if err := p.boot(bin); err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}

// boot starts etcd and kube-apiserver, installs the CRDs, then starts the
// controller, which needs them.
func (p *plane) boot(bin string) error {
	token, err := p.secrets()
	if err != nil {
		return err
	}
	ports, err := freePorts(3)
	if err != nil {
		return err
	}
	etcd := "http://127.0.0.1:" + ports[0]
	peer := "http://127.0.0.1:" + ports[1]
	p.run("etcd", []string{"etcd", "--name=default", "--data-dir=" + filepath.Join(p.dir, "etcd"),
		"--listen-client-urls=" + etcd, "--advertise-client-urls=" + etcd,
		"--listen-peer-urls=" + peer, "--initial-advertise-peer-urls=" + peer,
		"--initial-cluster=default=" + peer}, nil)
	apiserver := p.run("kube-apiserver", []string{filepath.Join(bin, "kube-apiserver"),
		"--etcd-servers=" + etcd, "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
		"--secure-port=" + ports[2], "--cert-dir=" + filepath.Join(p.dir, "certs"),
		"--token-auth-file=" + p.file("tokens.csv"), "--authorization-mode=RBAC",
		"--service-account-key-file=" + p.file("sa.key"), "--service-account-signing-key-file=" + p.file("sa.key"),
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--disable-admission-plugins=ServiceAccount", "--service-cluster-ip-range=10.0.0.0/24",
		"--endpoint-reconciler-type=none"}, nil)
	p.config = &rest.Config{Host: "https://127.0.0.1:" + ports[2], BearerToken: token,
		TLSClientConfig: rest.TLSClientConfig{Insecure: true}, QPS: 200, Burst: 400}
	if err := p.connect(apiserver); err != nil {
		return err
	}
	if err := p.installCRDs(filepath.Join(bin, "crds")); err != nil {
		return err
	}
	kubeconfig, err := p.kubeconfig(token)
	if err != nil {
		return err
	}
	p.run("agent-sandbox-controller", []string{filepath.Join(bin, "agent-sandbox-controller"),
		"--extensions", "--enable-webhook=false", "--manage-webhook-certs=false", "--leader-elect=false",
		"--metrics-bind-address=0", "--health-probe-bind-address=0"}, []string{"KUBECONFIG=" + kubeconfig})
	return nil
}

func (p *plane) file(name string) string { return filepath.Join(p.dir, name) }

// secrets writes the token file (the admin's and the plugin user's
// tokens) and the service-account key, and returns the admin's token.
func (p *plane) secrets() (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	token, plugin := hex.EncodeToString(raw[:16]), hex.EncodeToString(raw[16:])
	p.plugin = plugin
	tokens := token + ",admin,admin,system:masters\n" + plugin + ",plugin,plugin,system:masters\n"
	if err := os.WriteFile(p.file("tokens.csv"), []byte(tokens), 0o600); err != nil {
		return "", err
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return "", err
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	return token, os.WriteFile(p.file("sa.key"), pemKey, 0o600)
}

func (p *plane) kubeconfig(token string) (string, error) {
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: %q, insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: %q}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`, p.config.Host, token)
	return p.file("kubeconfig"), os.WriteFile(p.file("kubeconfig"), []byte(cfg), 0o600)
}

// run starts a child that lives until stop; the returned channel closes
// when it exits.
func (p *plane) run(name string, argv, env []string) <-chan struct{} {
	exited := make(chan struct{})
	log, err := os.Create(p.file(name + ".log"))
	if err != nil {
		close(exited)
		return exited
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer close(exited)
		defer log.Close()
		_, err := proc.Run(p.ctx, proc.Cmd{Argv: argv, Env: env, Dir: p.dir, Stdout: log, Stderr: log, Grace: 3 * time.Second})
		if err != nil && p.ctx.Err() == nil {
			fmt.Fprintf(log, "\nkubetest: %v\n", err)
		}
	}()
	return exited
}

// connect waits until the API server is ready, or has exited.
func (p *plane) connect(apiserver <-chan struct{}) error {
	dc, err := discovery.NewDiscoveryClientForConfig(p.config)
	if err != nil {
		return err
	}
	ready := func() bool {
		select {
		case <-apiserver:
			return true
		default:
		}
		_, err := dc.RESTClient().Get().AbsPath("/readyz").DoRaw(p.ctx)
		return err == nil
	}
	if err := poll("kube-apiserver /readyz", ready); err != nil {
		return p.failed(err, "kube-apiserver")
	}
	select {
	case <-apiserver:
		return p.failed(errors.New("kube-apiserver exited"), "kube-apiserver")
	default:
	}
	if p.dyn, err = dynamic.NewForConfig(p.config); err != nil {
		return err
	}
	p.mapper = restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
	return nil
}

// failed adds the end of the named child's log (and etcd's) to err.
func (p *plane) failed(err error, name string) error {
	for _, n := range []string{name, "etcd"} {
		b, _ := os.ReadFile(p.file(n + ".log"))
		if len(b) > 3000 {
			b = b[len(b)-3000:]
		}
		err = fmt.Errorf("%w\n--- %s.log:\n%s", err, n, b)
	}
	return err
}

func (p *plane) stop() {
	p.cancel()
	p.wg.Wait()
	os.RemoveAll(p.dir)
}

// freePorts returns n loopback ports free at the time of asking.
func freePorts(n int) ([]string, error) {
	var ports []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		ports = append(ports, strconv.Itoa(l.Addr().(*net.TCPAddr).Port))
	}
	return ports, nil
}
