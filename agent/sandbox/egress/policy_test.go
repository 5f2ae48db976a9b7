package egress

import (
	"context"
	"errors"
	"net/netip"
	"slices"
	"testing"
)

// fakeDNS answers from its table and records what it was asked.
type fakeDNS struct {
	names map[string][]string
	asked []string
}

func (d *fakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	d.asked = append(d.asked, host)
	var out []netip.Addr
	for _, a := range d.names[host] {
		out = append(out, netip.MustParseAddr(a))
	}
	if out == nil {
		return nil, errors.New("no such host")
	}
	return out, nil
}

func TestSpecialAddresses(t *testing.T) {
	for _, a := range []string{"127.0.0.1", "127.1.2.3", "10.255.255.1", "172.16.0.1", "172.31.255.255", "192.168.1.1",
		"169.254.169.254", "100.64.0.1", "100.127.255.254", "0.0.0.0", "224.0.0.1", "239.255.255.250", "255.255.255.255",
		"::1", "::", "fe80::1", "fd00::1", "fc00::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254",
		"64:ff9b::a00:1", "::127.0.0.1", "fd00:ec2::254", "fe80::1%eth0", "2606:4700::1111%eth0"} {
		if special(netip.MustParseAddr(a)) == "" {
			t.Errorf("%s counts as public", a)
		}
	}
	for _, a := range []string{"8.8.8.8", "1.1.1.1", "140.82.112.3", "172.32.0.1", "100.128.0.1", "2606:4700::1111",
		"2a00:1450:4001::200e", "64:ff9b::808:808"} {
		if why := special(netip.MustParseAddr(a)); why != "" {
			t.Errorf("%s counts as %s", a, why)
		}
	}
}

func TestPolicy(t *testing.T) {
	dns := &fakeDNS{names: map[string][]string{
		"github.com":           {"140.82.112.3"},
		"api.github.com":       {"140.82.112.5"},
		"registry.npmjs.org":   {"104.16.0.34", "2606:4700::6810:22"},
		"npmjs.org":            {"104.16.0.35"},
		"rebind.example":       {"140.82.112.3", "127.0.0.1"},
		"metadata.example":     {"169.254.169.254"},
		"internal.example":     {"10.0.0.5"},
		"localhost":            {"127.0.0.1", "::1"},
		"api.anthropic.com":    {"160.79.104.10"},
		"gateway.corp.example": {"10.1.2.3"},
	}}
	internet := Policy{API: []string{"api.anthropic.com:443", "127.0.0.1:4000", "gateway.corp.example:8443"},
		Own: []netip.Addr{netip.MustParseAddr("203.0.113.7")}}
	list := Policy{Hosts: []string{"github.com", "*.npmjs.org", "127.0.0.1:8080", "localhost:3000", "internal.example",
		"example.com:443", "[::1]:9000"}, API: internet.API}
	for _, tt := range []struct {
		policy Policy
		dest   string
		ok     bool
	}{
		{internet, "github.com:443", true},
		{internet, "github.com:22", true}, // any port of a public host
		{internet, "8.8.8.8:53", true},
		{internet, "rebind.example:443", false}, // one of its addresses is loopback
		{internet, "metadata.example:80", false},
		{internet, "169.254.169.254:80", false},
		{internet, "10.255.255.1:80", false},
		{internet, "127.0.0.1:8080", false},
		{internet, "localhost:8080", false},
		{internet, "[::1]:8080", false},
		{internet, "[::ffff:127.0.0.1]:8080", false},
		{internet, "[fe80::1%eth0]:80", false},
		{internet, "203.0.113.7:8080", false}, // this machine's public address: bh serve on 0.0.0.0
		{internet, "api.anthropic.com:443", true},
		{internet, "127.0.0.1:4000", true},            // the model API, on loopback
		{internet, "gateway.corp.example:8443", true}, // a private one
		{internet, "gateway.corp.example:443", false}, // but at its port only
		{internet, "127.0.0.1:4001", false},
		{internet, "nohost", false},
		{list, "github.com:443", true},
		{list, "api.github.com:443", false}, // exact names are exact
		{list, "registry.npmjs.org:443", true},
		{list, "npmjs.org:443", false}, // *.suffix is what is under it
		{list, "8.8.8.8:53", false},
		{list, "127.0.0.1:8080", true}, // an address listed as such
		{list, "127.0.0.1:8081", false},
		{list, "localhost:3000", true},
		{list, "[::1]:9000", true},
		{list, "internal.example:443", false}, // a listed name leads nowhere private
		{list, "example.com:80", false},
		{list, "api.anthropic.com:443", true},
		{list, "127.0.0.1:4000", true},
	} {
		dns.asked = nil
		addrs, err := tt.policy.Addrs(context.Background(), dns, tt.dest)
		var refused *Refused
		if tt.ok != (err == nil) || err != nil && !errors.As(err, &refused) {
			t.Errorf("%s (list %v): %v, %v", tt.dest, tt.policy.Hosts != nil, addrs, err)
		}
		if tt.dest == "8.8.8.8:53" && tt.policy.Hosts != nil && len(dns.asked) > 0 || tt.dest == "api.github.com:443" && len(dns.asked) > 0 {
			t.Errorf("%s: looked up though not listed", tt.dest)
		}
	}
	// What is dialled is what was checked: the addresses, never the name.
	addrs, err := internet.Addrs(context.Background(), dns, "registry.npmjs.org:443")
	if err != nil || !slices.Equal(addrs, []netip.AddrPort{netip.MustParseAddrPort("104.16.0.34:443"),
		netip.MustParseAddrPort("[2606:4700::6810:22]:443")}) {
		t.Errorf("registry.npmjs.org: %v, %v", addrs, err)
	}
}

func TestSplitEntry(t *testing.T) {
	for _, e := range []string{"github.com", "*.npmjs.org", "127.0.0.1", "127.0.0.1:8080", "::1", "[::1]:9000", "localhost:3000",
		"GitHub.com."} {
		if _, _, err := splitEntry(e); err != nil {
			t.Errorf("%q: %v", e, err)
		}
	}
	for _, e := range []string{"", "https://github.com", "github.com/x", "*.", "a*.b", "user@host", "two words", "host:0", "host:99999"} {
		if _, _, err := splitEntry(e); err == nil {
			t.Errorf("%q passes", e)
		}
	}
}

func TestBridgeArgs(t *testing.T) {
	b := Bridge{Socket: "/tmp/bh-egress-1/proxy.sock", Listen: "127.0.0.1:3128", Forward: []string{"127.0.0.1:4000", "localhost:5000"},
		Argv: []string{"claude", "--socket", "-p", "--", "x"}}
	a := b.Args()
	if a[0] != Command {
		t.Fatalf("args %q", a)
	}
	got, err := ParseArgs(a[1:])
	if err != nil || got.Socket != b.Socket || got.Listen != b.Listen || !slices.Equal(got.Forward, b.Forward) || !slices.Equal(got.Argv, b.Argv) {
		t.Errorf("ParseArgs(%q) = %+v, %v", a[1:], got, err)
	}
	if _, err := ParseArgs([]string{"--socket", "s", "--", "x"}); err == nil {
		t.Errorf("no --listen, no error")
	}
}
