package jail

import (
	"net"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sync"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/sandbox"
	"github.com/bh-tracker/bh/agent/sandbox/egress"
	"github.com/bh-tracker/bh/task/config"
)

// egress is the sandbox's way out to the network for an agent of
// cfg: bh's proxy under sandbox.network, which always lets the model's
// API through; nil (no network at all) for network: false.
func (j *Jail) egress(cfg config.AgentConfig) *sandbox.Egress {
	n := j.Store.Config.Sandbox.Network
	self := MCPCommand() // the bridge is bh, as its MCP server is
	if n.Off || self == nil {
		return nil
	}
	return &sandbox.Egress{Bridge: self.Command,
		Policy: egress.Policy{Hosts: n.Hosts, API: apiHosts(cfg, j.Getenv)}}
}

// apiHosts are the host:port of the model APIs an agent of cfg talks
// to: the base URLs of its environment and, for codex, of its
// config.toml's providers, and the vendors' own (for codex also
// chatgpt.com, where a ChatGPT login's requests go). They are read from
// the worker's environment and the user's CODEX_HOME, never from what
// the run's agent could write: an agent that chose its next run's API
// would choose a way to bh serve. (The user's CODEX_HOME must therefore
// not be writable in the sandbox: each run has its own agent state.)
func apiHosts(cfg config.AgentConfig, getenv func(string) string) []string {
	var urls []string
	switch cfg.Kind {
	case "", "claude":
		urls = append(urls, "https://api.anthropic.com")
	case "codex":
		urls = append(urls, "https://api.openai.com", "https://chatgpt.com")
		st, _ := agent.StateOf(cfg.Kind, getenv)
		urls = append(urls, tomlBaseURLs(st.Seed["config.toml"])...)
	}
	urls = append(urls, getenv("ANTHROPIC_BASE_URL"), getenv("OPENAI_BASE_URL"))
	var out []string
	for _, u := range urls {
		if hp := hostPort(u); hp != "" && !slices.Contains(out, hp) {
			out = append(out, hp)
		}
	}
	return out
}

// hostPort is the host:port a URL's requests go to; "" for none.
func hostPort(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	port := u.Port()
	switch {
	case port != "":
	case u.Scheme == "http":
		port = "80"
	default:
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// tomlBaseURLs are the values of the keys that end in base_url in a
// codex config.toml (its model providers' and profiles'): a line scan,
// which is all codex's flat settings need.
func tomlBaseURLs(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []string
	for _, m := range baseURLLine().FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	return out
}

var baseURLLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*[\w.-]*base_url\s*=\s*["']([^"'\n]*)["']`)
})
