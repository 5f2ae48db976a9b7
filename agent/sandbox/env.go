package sandbox

import "strings"

// DefaultEnv are the variables a sandboxed child keeps: what finds
// programs and speaks the user's language, the agents' own API settings
// (their keys among them: the agent needs them), bh's, Go's and a proxy.
// Anything else, a GITHUB_TOKEN or AWS_SECRET_ACCESS_KEY, stays out.
var DefaultEnv = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "COLORTERM", "NO_COLOR", "LANG", "LANGUAGE", "LC_*", "TZ",
	"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
	"ANTHROPIC_*", "CLAUDE_*", "OPENAI_*", "CODEX_*", "BH_*",
	// Claude Code's own settings without its prefix.
	"DISABLE_*", "MCP_TIMEOUT", "MCP_TOOL_TIMEOUT", "MAX_MCP_OUTPUT_TOKENS", "MAX_THINKING_TOKENS", "API_TIMEOUT_MS",
	"BASH_DEFAULT_TIMEOUT_MS", "BASH_MAX_TIMEOUT_MS", "BASH_MAX_OUTPUT_LENGTH",
	"GOPATH", "GOROOT", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOPRIVATE", "GONOPROXY", "GONOSUMDB",
	"GOSUMDB", "GOTOOLCHAIN", "CGO_ENABLED",
	"NODE_OPTIONS", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
}

// FilterEnv keeps the variables of env that allow names ("PATH") or
// matches by prefix ("LC_*").
func FilterEnv(env, allow []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if Allowed(name, allow) {
			out = append(out, kv)
		}
	}
	return out
}

// Allowed reports whether variable name is on the list allow.
func Allowed(name string, allow []string) bool {
	for _, a := range allow {
		if p, ok := strings.CutSuffix(a, "*"); ok && strings.HasPrefix(name, p) || a == name {
			return true
		}
	}
	return false
}
