package config

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Network is sandbox.network: where sandboxed agents' traffic may go,
// through bh's proxy. internet (the default) is any public host, never
// the host's loopback or private addresses; a list of hosts is an
// allow-list ("host", "*.domain" or an address, each with an optional
// ":port"); false cuts agents off every network, their model API
// included. The model API is always allowed otherwise.
type Network struct {
	Off   bool     `yaml:"-"`
	Hosts []string `yaml:"-"` // nil: the internet
	bad   string   // a value bh cannot use, reported by Check
}

// Internet is the default, spelled out.
const Internet = "internet"

// UnmarshalYAML takes internet (or true, as older configs said), false,
// or a list; Check reports anything else at its line.
func (n *Network) UnmarshalYAML(v *yaml.Node) error {
	*n = Network{}
	switch {
	case v.Kind == yaml.SequenceNode:
		n.Hosts = []string{}
		for _, h := range v.Content {
			if h.Kind != yaml.ScalarNode {
				n.bad = "a list of hosts, each a string"
				continue
			}
			n.Hosts = append(n.Hosts, h.Value)
		}
	case v.Kind != yaml.ScalarNode:
		n.bad = "a mapping"
	default:
		switch strings.ToLower(v.Value) {
		case Internet, "true", "yes", "on":
		case "false", "no", "off":
			n.Off = true
		default:
			n.bad = fmt.Sprintf("%q", v.Value)
		}
	}
	return nil
}

// Check says what is wrong with sandbox.network.
func (n Network) Check() error {
	if n.bad != "" {
		return fmt.Errorf("%s: want internet, false or a list of hosts", n.bad)
	}
	for _, h := range n.Hosts {
		if h == "" || strings.ContainsAny(h, "/@ \t") || strings.Contains(strings.TrimPrefix(h, "*."), "*") {
			return fmt.Errorf("%q: want a host, *.domain or an address, with an optional :port", h)
		}
	}
	return nil
}
