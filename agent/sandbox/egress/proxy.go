package egress

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Proxy is the HTTP proxy a sandbox's traffic leaves through: CONNECT
// tunnels (HTTPS, and anything else a client tunnels) and plain
// absolute-URI HTTP requests, each to a destination its Policy allows.
//
// It is net/http's server and httputil.ReverseProxy rather than a proxy
// library (goproxy and the like): what matters here is the one dial,
// to addresses checked after resolving, which those libraries hide
// behind hooks of their own; the rest is a hundred lines.
type Proxy struct {
	policy Policy
	dir    string // the socket's own folder, removed on Close
	ln     net.Listener
	srv    *http.Server
	rp     *httputil.ReverseProxy
	tr     *http.Transport
	dialer net.Dialer

	mu      sync.Mutex
	tunnels map[net.Conn]bool
}

// Start serves policy on a unix socket of its own, in a new folder under
// /tmp: a sandbox has a /tmp of its own, so it sees no other run's
// socket (whose policy may be wider) but the one bound in, and the path
// stays short enough for a unix socket whatever TMPDIR is.
func Start(policy Policy) (*Proxy, error) {
	sweepOnce.Do(sweep) // what killed workers left
	dir, err := os.MkdirTemp(tmpRoot, "bh-egress-")
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("unix", filepath.Join(dir, "proxy.sock"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	policy.Own = append(policy.Own, ownAddrs()...)
	x := &Proxy{policy: policy, dir: dir, ln: ln, tunnels: map[net.Conn]bool{},
		dialer: net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}}
	x.tr = &http.Transport{DialContext: x.dial, MaxIdleConnsPerHost: 4, IdleConnTimeout: 90 * time.Second,
		ResponseHeaderTimeout: 10 * time.Minute}
	x.rp = &httputil.ReverseProxy{
		Rewrite:       func(*httputil.ProxyRequest) {}, // the request names its destination itself
		Transport:     x.tr,
		FlushInterval: -1, // streamed answers (a model's server-sent events) go through as they come
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			http.Error(w, err.Error(), status(err))
		},
		ErrorLog: quiet, // the client has the error; the worker's terminal is not the agent's log
	}
	x.srv = &http.Server{Handler: x, ReadHeaderTimeout: time.Minute, ErrorLog: quiet}
	go x.srv.Serve(ln)
	return x, nil
}

var quiet = log.New(io.Discard, "", 0)

// Socket is the unix socket's path.
func (x *Proxy) Socket() string { return x.ln.Addr().String() }

// Close stops the proxy, ends its tunnels and removes its socket.
func (x *Proxy) Close() error {
	err := x.srv.Close()
	x.tr.CloseIdleConnections()
	x.mu.Lock()
	for c := range x.tunnels {
		c.Close()
	}
	x.mu.Unlock()
	os.RemoveAll(x.dir)
	return err
}

func (x *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodConnect:
		x.connect(w, r)
	case r.URL.Scheme == "http" && r.URL.Host != "":
		x.rp.ServeHTTP(w, r)
	default:
		http.Error(w, "egress: this is a proxy: want CONNECT or an absolute http:// URL", http.StatusBadRequest)
	}
}

// connect tunnels a CONNECT request to its destination.
func (x *Proxy) connect(w http.ResponseWriter, r *http.Request) {
	up, err := x.dial(r.Context(), "tcp", r.Host)
	if err != nil {
		http.Error(w, err.Error(), status(err))
		return
	}
	down, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		up.Close()
		return
	}
	x.track(up, down)
	defer x.untrack(up, down)
	if _, err := io.WriteString(down, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		io.Copy(up, rw.Reader) // what the client sent early is in rw's buffer
		closeWrite(up)
		close(done)
	}()
	io.Copy(down, up)
	closeWrite(down)
	<-done
}

// dial connects to one of the addresses the policy allows for addr.
func (x *Proxy) dial(ctx context.Context, _, addr string) (net.Conn, error) {
	addrs, err := x.policy.Addrs(ctx, net.DefaultResolver, addr)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, a := range addrs {
		c, err := x.dialer.DialContext(ctx, "tcp", a.String())
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

func (x *Proxy) track(cs ...net.Conn) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, c := range cs {
		x.tunnels[c] = true
	}
}

func (x *Proxy) untrack(cs ...net.Conn) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(x.tunnels, c)
	}
}

// status is the HTTP status of a failed dial: 403 for a destination the
// policy refuses, 502 for one that cannot be reached.
func status(err error) int {
	var refused *Refused
	if errors.As(err, &refused) {
		return http.StatusForbidden
	}
	return http.StatusBadGateway
}

// closeWrite half-closes c, so that the other side sees the end of what
// was sent while its answer may still come.
func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	} else {
		c.Close()
	}
}
