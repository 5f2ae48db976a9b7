package sandbox

import (
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/agent/sandbox/egress"
)

// Egress is how a sandbox reaches the network: every sandbox has a
// network namespace of its own, with loopback alone, and its traffic
// leaves through a proxy bh runs outside (package egress), one per
// launched child, which a bridge inside reaches over a unix socket.
type Egress struct {
	Bridge string // bh's own binary, which runs the bridge (egress.Command)
	Policy egress.Policy
}

// proxyPort is the proxy's port inside the namespace, where nothing
// else listens (but a forward, which is moved out of its way).
const proxyPort = 3128

// proxyEnv are the variables that name a proxy: the sandbox's replace
// the user's, and none is skipped (NO_PROXY).
var proxyEnv = []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
	"NO_PROXY", "no_proxy"}

// launch starts l's proxy, binds its socket into the sandbox (args ends
// with "--") and puts the bridge before l's command line; l.Done stops
// the proxy once the child is gone.
func (e *Egress) launch(args []string, l proc.Launch) (proc.Launch, []string, error) {
	x, err := egress.Start(e.Policy)
	if err != nil {
		return l, nil, err
	}
	sock := x.Socket()
	args = slices.Insert(args, len(args)-1, "--ro-bind", sock, sock)
	forward := loopbackAPIs(e.Policy.API)
	port := proxyPort
	for slices.ContainsFunc(forward, func(f string) bool { _, p, _ := net.SplitHostPort(f); return p == strconv.Itoa(port) }) {
		port++
	}
	listen := "127.0.0.1:" + strconv.Itoa(port)
	l.Argv = append([]string{e.Bridge}, egress.Bridge{Socket: sock, Listen: listen, Forward: forward, Argv: l.Argv}.Args()...)
	l.Env = slices.DeleteFunc(l.Env, func(kv string) bool {
		return slices.ContainsFunc(proxyEnv, func(name string) bool { return strings.HasPrefix(kv, name+"=") })
	})
	for _, name := range proxyEnv[:6] {
		l.Env = append(l.Env, name+"=http://"+listen)
	}
	l.Done = func() { x.Close() }
	return l, args, nil
}

// loopbackAPIs are the model APIs that listen on loopback, which the
// bridge listens for inside too.
func loopbackAPIs(api []string) []string {
	var out []string
	for _, a := range api {
		host, _, err := net.SplitHostPort(a)
		if err != nil {
			continue
		}
		if ip, err := netip.ParseAddr(host); host == "localhost" || err == nil && ip.IsLoopback() {
			out = append(out, a)
		}
	}
	return out
}
