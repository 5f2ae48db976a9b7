// Package egress is a sandbox's one way out to the network. The agent
// runs in a network namespace of its own, where only loopback exists; a
// bridge inside (bh sandbox-bridge, the agent's parent) listens there and
// carries each connection over a unix socket to a proxy bh runs outside,
// which resolves the destination, checks it against the run's Policy and
// dials the address it checked. So no agent reaches the host's loopback
// (bh serve, local databases), the private network or the cloud's
// metadata address, unless the policy names it.
package egress

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"
)

// Policy is where a sandbox's traffic may go.
type Policy struct {
	// Hosts is an allow-list: "host", "*.suffix" (any name under it) or
	// an address, each with an optional ":port". Nil allows any host on
	// the internet.
	Hosts []string
	// API are the model API's host:port, always allowed whatever its
	// address: the agent cannot work without it, and a local one (a
	// gateway, the tests' fake API) listens on loopback.
	API []string
	// Own are this machine's own addresses (a server bound to 0.0.0.0
	// listens on its public one too): refused as loopback is. Start
	// fills them in.
	Own []netip.Addr
}

// Resolver looks names up (net.DefaultResolver).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Refused is a destination the policy does not allow.
type Refused struct{ Dest, Why string }

func (e *Refused) Error() string { return "egress: " + e.Dest + " refused by the sandbox: " + e.Why }

// Addrs are the addresses to dial for dest (host:port), each checked,
// or a *Refused. Names are resolved here, outside the sandbox, and the
// caller dials what is returned, never the name: a name that resolves
// to a public address when checked cannot lead elsewhere when dialled.
// Only an entry that names an address itself (or localhost), or the
// model API, reaches one that is not public: a listed name cannot lead
// into the host's own network.
func (p Policy) Addrs(ctx context.Context, r Resolver, dest string) ([]netip.AddrPort, error) {
	host, port, err := splitDest(dest)
	if err != nil {
		return nil, &Refused{dest, err.Error()}
	}
	local := p.isAPI(host, port)
	if !local && p.Hosts != nil {
		var ok bool
		if ok, local = p.listed(host, port); !ok {
			return nil, &Refused{dest, "not on the list of sandbox.network"}
		}
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = r.LookupNetIP(ctx, "ip", host); err != nil {
		return nil, fmt.Errorf("egress: %w", err)
	}
	out := make([]netip.AddrPort, 0, len(ips))
	for _, ip := range ips {
		ip = ip.Unmap()
		why := special(ip)
		if why == "" && slices.Contains(p.Own, ip) {
			why = "this machine's own address"
		}
		if why != "" && !local {
			return nil, &Refused{dest, fmt.Sprintf("%s is %s", ip, why)}
		}
		out = append(out, netip.AddrPortFrom(ip, port))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("egress: %s has no address", host)
	}
	return out, nil
}

// isAPI reports whether host:port is the model API's.
func (p Policy) isAPI(host string, port uint16) bool {
	return slices.ContainsFunc(p.API, func(a string) bool {
		h, pt, err := splitDest(a)
		return err == nil && h == host && pt == port
	})
}

// listed reports whether host:port is on the allow-list, and whether the
// entry names it exactly as an address or localhost (which may then be
// anything, loopback included).
func (p Policy) listed(host string, port uint16) (ok, local bool) {
	for _, e := range p.Hosts {
		h, pt, err := splitEntry(e)
		if err != nil || pt != 0 && pt != port {
			continue
		}
		if suffix, wild := strings.CutPrefix(h, "*."); wild {
			if strings.HasSuffix(host, "."+suffix) {
				ok = true
			}
			continue
		}
		if h == host {
			_, addrErr := netip.ParseAddr(h)
			return true, addrErr == nil || h == "localhost"
		}
	}
	return ok, false
}

// splitEntry is an allow-list entry's host, lower-case, and its port
// (0: any).
func splitEntry(e string) (string, uint16, error) {
	bad := fmt.Errorf("%q: want a host, *.domain or an address, with an optional :port", e)
	if strings.ContainsAny(e, "/@ \t") {
		return "", 0, bad
	}
	if host, port, err := splitDest(e); err == nil {
		return host, port, nil
	}
	host := strings.ToLower(strings.TrimSuffix(e, "."))
	if _, err := netip.ParseAddr(host); err == nil {
		return host, 0, nil // an IPv6 address without a port
	}
	if name, _ := strings.CutPrefix(host, "*."); name == "" || strings.ContainsAny(name, ":*[]") {
		return "", 0, bad
	}
	return host, 0, nil
}

// splitDest is host:port split, the host lower-case without brackets
// or a final dot.
func splitDest(dest string) (string, uint16, error) {
	host, ps, err := net.SplitHostPort(dest)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.ParseUint(ps, 10, 16)
	if err != nil || port == 0 || host == "" {
		return "", 0, fmt.Errorf("%q: want host:port", dest)
	}
	return strings.ToLower(strings.TrimSuffix(host, ".")), uint16(port), nil
}

// nonPublic are the IPv4 and IPv6 ranges no agent reaches unless its
// policy names them: this host, private networks, link-local (the cloud's
// metadata address, 169.254.169.254), carrier-grade NAT, multicast,
// reserved and unspecified addresses.
var nonPublic = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private"},
	{netip.MustParsePrefix("100.64.0.0/10"), "carrier-grade NAT"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local (cloud metadata)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private"},
	{netip.MustParsePrefix("192.0.0.0/24"), "reserved"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private"},
	{netip.MustParsePrefix("198.18.0.0/15"), "reserved"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("::/127"), "loopback or unspecified"},
	{netip.MustParsePrefix("::/96"), "IPv4-compatible"},
	{netip.MustParsePrefix("100::/64"), "reserved"},
	{netip.MustParsePrefix("fc00::/7"), "private"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// ownAddrs are the addresses of this machine's interfaces.
func ownAddrs() []netip.Addr {
	as, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []netip.Addr
	for _, a := range as {
		if p, err := netip.ParsePrefix(a.String()); err == nil {
			out = append(out, p.Addr().Unmap())
		}
	}
	return out
}

// nat64 embeds an IPv4 address in the last 32 bits.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// special says what kind of address ip is when it is not public; "" for
// a public one.
func special(ip netip.Addr) string {
	if ip.Zone() != "" {
		return "scoped to an interface" // and prefixes never contain it
	}
	ip = ip.Unmap()
	if nat64.Contains(ip) {
		b := ip.As16()
		return special(netip.AddrFrom4([4]byte(b[12:])))
	}
	for _, n := range nonPublic {
		if n.prefix.Contains(ip) {
			return n.what
		}
	}
	return ""
}
