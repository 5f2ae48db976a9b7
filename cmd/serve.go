package cmd

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/cmd/web/webopts"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/github"
	"github.com/spf13/cobra"
)

type ServeOptions struct {
	base
	Ctx             context.Context
	Listen          string
	TLSCert, TLSKey string
	Insecure        bool
	PublicURL       string
	RevokeLinks     bool
	// AfterFunc is the undo window's timer, for tests: web.Options.AfterFunc.
	AfterFunc func(time.Duration, func()) func() bool
	// Inbox makes the web inbox (Factory.Inbox); nil runs bh-web instead.
	Inbox webopts.New
}

// defaultListen is bh serve's address: this machine only.
const defaultListen = "127.0.0.1:7420"

func newCmdServe(f *Factory, runF func(*ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{}
	c := &cobra.Command{
		Use:   "serve",
		Short: "The inbox in your browser: answer questions, watch runs",
		Long: `Serve the inbox of every registered repository (see bh inbox) as a web
page, on ` + defaultListen + ` unless --listen says otherwise. A task's page shows
its questions with their context, its history and its parked work; answers
given there go through the same checks as bh respond and are recorded as
answered by web:<your user name>. New questions, answers given elsewhere and
runs starting or finishing appear without a reload. It runs bh-web, bh
with the web inbox linked, found beside bh or on PATH.

With BH_GITHUB_SECRET set, GitHub's webhooks (issues, issue_comment) signed
with it are taken at /github/webhook: replies on an issue answer at once,
without waiting for the worker's poll (bh import github).

Every request needs a token, made on the first start and kept with the
address in ~/.config/bh/web.json (readable by you alone): open the address
bh serve prints (with ?token=), and the browser keeps it in a cookie. Other
programs send Authorization: Bearer <token>. An address other than this
machine's loopback needs TLS (--tls-cert and --tls-key), or --insecure to
send the token in the clear. Ctrl-C stops the server.

Notifications carry answer links: the task's page at the address bh serve
saved (--public-url, when a phone reaches it through a tailnet or a TLS
proxy), signed, answering the questions asked once, until they expire
(else 24h), with no token. --revoke-links rotates their key: every link
sent before is refused, even by a bh serve already running.

Exit codes:
  0  stopped (Ctrl-C)
  1  cannot listen, the web config cannot be read or written, or no bh-web
  2  usage error: a bad --listen, or another address without TLS or --insecure`,
		Example: `  bh serve
  bh serve --listen 127.0.0.1:8080
  bh serve --listen 0.0.0.0:7420 --tls-cert cert.pem --tls-key key.pem
  tailscale serve --bg 7420 && bh serve --public-url https://laptop.tailnet-name.ts.net
  bh serve --revoke-links`,
		Args: argsRange(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			opts.base, opts.Ctx = f.base(), c.Context()
			if opts.AfterFunc == nil {
				opts.AfterFunc = f.AfterFunc
			}
			if opts.Inbox == nil {
				opts.Inbox = f.Inbox
			}
			return runWith(runF, serveRun, opts)
		},
	}
	fl := c.Flags()
	fl.StringVar(&opts.Listen, "listen", defaultListen, "listen on `HOST:PORT` (port 0 picks a free one)")
	fl.StringVar(&opts.TLSCert, "tls-cert", "", "serve HTTPS with this certificate `FILE` (PEM)")
	fl.StringVar(&opts.TLSKey, "tls-key", "", "... and this private key `FILE` (PEM)")
	fl.BoolVar(&opts.Insecure, "insecure", false, "allow plain HTTP on an address other than loopback")
	fl.StringVar(&opts.PublicURL, "public-url", "", "the `URL` a phone reaches bh serve at (a tailnet or reverse proxy), for links")
	fl.BoolVar(&opts.RevokeLinks, "revoke-links", false, "refuse every answer link sent so far (a new signing key)")
	return c
}

func serveRun(opts *ServeOptions) error {
	if opts.Inbox == nil {
		return runBhWeb(opts.Args)
	}
	if err := checkListen(opts); err != nil {
		return err
	}
	tlsConf, err := loadTLS(opts)
	if err != nil {
		return err
	}
	conf, err := serveConfig(opts)
	if err != nil {
		return err
	}
	ln, err := listen(opts)
	if err != nil {
		return err
	}
	defer ln.Close()
	conf.URL = serveURL(opts, ln.Addr().(*net.TCPAddr))
	if opts.PublicURL != "" {
		conf.URL = opts.PublicURL
	}
	if err := config.SaveWebConfig(conf); err != nil {
		return fmt.Errorf("save %s: %w", config.WebConfigPath(), err)
	}
	if _, err := opts.Store(); err != nil { // registers this repository, if bh is used here
		fmt.Fprintln(opts.IO.ErrOut, "not in a repository that uses bh: showing the registered ones")
	}
	local := ""
	if u, err := url.Parse(conf.URL); err == nil && isLoopback(u.Hostname()) {
		local = conf.URL
		warn(opts.IO, false, withHint(fmt.Errorf("links in notifications point at %s, which a phone cannot open", conf.URL),
			"set --public-url to an address the phone reaches (a tailnet's, a reverse proxy's)"))
	}
	warnf := func(format string, args ...any) { warn(opts.IO, false, fmt.Errorf(format, args...)) }
	wo := webopts.Options{Token: conf.Token, URL: opts.PublicURL, LocalLinks: local, By: "web:" + config.UserName(), Repos: config.Registered,
		Now: opts.Now, AfterFunc: opts.AfterFunc, TLS: opts.TLSCert != "", Warnf: warnf}
	if secret := os.Getenv("BH_GITHUB_SECRET"); secret != "" { // GitHub's webhooks, signed with it
		wo.GitHub = github.Webhook{Secret: secret, Repos: config.Registered, Logf: warnf}
	}
	srv, err := opts.Inbox(wo)
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(opts.Ctx)
	defer stop()
	if err := srv.Watch(ctx); err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, TLSConfig: tlsConf,
		ErrorLog:    log.New(opts.IO.ErrOut, "bh serve: ", 0),
		BaseContext: func(net.Listener) context.Context { return ctx }} // Ctrl-C ends the event streams too
	fmt.Fprintln(opts.IO.Out, conf.URL+"/?token="+conf.Token)
	fmt.Fprintf(opts.IO.ErrOut, "the inbox is at the address above (the token is in %s); Ctrl-C stops\n", config.WebConfigPath())
	defer srv.Flush() // an approval held when bh serve stops is recorded: the human never undid it
	return serveUntil(ctx, hs, ln)
}

// webBinary is bh with the web inbox linked (cmd/web/bh-web), which bh
// serve runs in its place. bh does not link the inbox: goldmark's and
// chroma's tables, built when a program starts, cost every bh command
// 0.3-0.9 ms of its 6-8 (bh --version built with and without it, 300
// pairs, medians 7.30 and 6.44 ms).
const webBinary = "bh-web"

// runBhWeb runs bh-web with bh's command line in bh's place: its output,
// signals and exit code are bh serve's.
func runBhWeb(args []string) error {
	if os.Getenv("BH_SERVE_VIA") != "" { // a bh-web that is not one, running bh-web again
		return fmt.Errorf("%s (%s) cannot serve the inbox: it is not bh-web", os.Args[0], os.Getenv("BH_SERVE_VIA"))
	}
	path, ok := proc.Beside(webBinary)
	if !ok {
		return withHint(fmt.Errorf("bh serve needs %s, bh with its web inbox, beside bh or on PATH", webBinary),
			`build it beside bh, from bh's repository: go build -o "$(dirname "$(command -v bh)")" ./cmd/web/bh-web`)
	}
	err := proc.Become(append([]string{path}, args...), append(os.Environ(), "BH_SERVE_VIA="+path, "BH_SERVE_VERSION="+buildName()))
	return fmt.Errorf("run %s: %w", path, err)
}

// listen listens at --listen.
func listen(opts *ServeOptions) (net.Listener, error) {
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil && opts.RevokeLinks {
		return nil, withHint(fmt.Errorf("listen: %w", err), "the links are revoked all the same: a bh serve running already refuses them")
	} else if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	return ln, nil
}

// loadTLS is the TLS configuration of --tls-cert and --tls-key, or nil.
func loadTLS(opts *ServeOptions) (*tls.Config, error) {
	if opts.TLSCert == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(opts.TLSCert, opts.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert, --tls-key: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}}, nil
}

// serveConfig is the web configuration with a token and a link key, new
// ones where there are none (or --revoke-links).
func serveConfig(opts *ServeOptions) (config.WebConfig, error) {
	conf, err := config.LoadWebConfig()
	if err != nil {
		return conf, err
	}
	if conf.Token == "" {
		b := make([]byte, 24)
		rand.Read(b)
		conf.Token = hex.EncodeToString(b)
	}
	if conf.LinkKey == "" || opts.RevokeLinks {
		conf.LinkKey, conf.Used = config.NewLinkKey(), nil
	}
	if opts.RevokeLinks { // saved now: a bh serve running already reads it on each link
		if err := config.SaveWebConfig(conf); err != nil {
			return conf, fmt.Errorf("save %s: %w", config.WebConfigPath(), err)
		}
		fmt.Fprintln(opts.IO.ErrOut, "every answer link sent before now is revoked")
	}
	return conf, nil
}

// serveUntil serves hs on ln until it fails or ctx ends, then shuts it down.
func serveUntil(ctx context.Context, hs *http.Server, ln net.Listener) error {
	done := make(chan error, 1)
	go func() {
		if hs.TLSConfig != nil {
			done <- hs.ServeTLS(ln, "", "")
		} else {
			done <- hs.Serve(ln)
		}
	}()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// checkListen refuses to send the token in the clear beyond this machine.
func checkListen(o *ServeOptions) error {
	host, port, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return usageErrorf("--listen %q: want HOST:PORT, such as %s", o.Listen, defaultListen)
	}
	if ip, ok := shortIPv4(host); ok { // spelt out, for the listener and the address printed
		host = ip.String()
		o.Listen = net.JoinHostPort(host, port)
	}
	if o.PublicURL != "" {
		u, err := url.Parse(o.PublicURL)
		if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || strings.Trim(u.Path, "/") != "" {
			return usageErrorf("--public-url %q: want an address such as https://laptop.tailnet-name.ts.net", o.PublicURL)
		}
		o.PublicURL = u.Scheme + "://" + u.Host
	}
	if (o.TLSCert == "") != (o.TLSKey == "") {
		return usageErrorf("give both --tls-cert and --tls-key, or neither")
	}
	if loopback(host) || o.TLSCert != "" || o.Insecure {
		return nil
	}
	return withHint(usageErrorf("--listen %s is reachable from other machines: serve it over TLS, or say --insecure", o.Listen),
		"anyone who sees the traffic would see the token: use --tls-cert and --tls-key (or --insecure on a network you trust)")
}

// loopback reports whether host is this machine only: localhost, ::1 or
// an address in 127.0.0.0/8.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// shortIPv4 reads the short forms of an IPv4 address that inet_aton and
// browsers accept (127.1 is 127.0.0.1, 10.1.2 is 10.1.0.2), in decimal;
// Go's parser knows only the dotted quad.
func shortIPv4(host string) (net.IP, bool) {
	parts := strings.Split(host, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, false
	}
	var nums []uint64
	for _, p := range parts {
		n, err := strconv.ParseUint(p, 10, 32) // "" too is refused
		if err != nil {
			return nil, false
		}
		nums = append(nums, n)
	}
	ip := make(net.IP, 4)
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return nil, false
		}
		ip[i] = byte(n)
	}
	last, room := nums[len(nums)-1], 4-(len(nums)-1)
	if last >= 1<<(8*room) {
		return nil, false
	}
	for i := 3; i >= len(nums)-1; i-- {
		ip[i], last = byte(last), last>>8
	}
	return ip, true
}

// serveURL is the address to open: the host asked for, or this machine's
// name when listening on every address.
func serveURL(o *ServeOptions, addr *net.TCPAddr) string {
	scheme := "http"
	if o.TLSCert != "" {
		scheme = "https"
	}
	host, _, _ := net.SplitHostPort(o.Listen)
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host, _ = os.Hostname()
	}
	return fmt.Sprintf("%s://%s", scheme, net.JoinHostPort(host, fmt.Sprint(addr.Port)))
}

// isLoopback says whether host names this machine only.
func isLoopback(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}
