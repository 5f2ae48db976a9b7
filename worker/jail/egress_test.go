package jail

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bh-tracker/bh/task/config"
)

// TestAPIHosts: the model API a run always reaches is its agent's
// vendor's, or the base URLs of its environment and codex's config.
func TestAPIHosts(t *testing.T) {
	home := t.TempDir()
	codexHome := filepath.Join(home, "codex")
	os.MkdirAll(codexHome, 0o700)
	os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte("model_provider = \"fake\"\n\n[model_providers.fake]\n"+
		"base_url = \"http://127.0.0.1:4000/v1\" # the gateway\n[profiles.x]\nchatgpt_base_url = 'https://gw.example/x'\n"), 0o600)
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	for _, tt := range []struct {
		kind string
		env  map[string]string
		want []string
	}{
		{"", nil, []string{"api.anthropic.com:443"}},
		{"claude", map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:8080"}, []string{"api.anthropic.com:443", "127.0.0.1:8080"}},
		{"codex", nil, []string{"api.openai.com:443", "chatgpt.com:443"}},
		{"codex", map[string]string{"CODEX_HOME": codexHome, "OPENAI_BASE_URL": "https://llm.corp.example/v1"},
			[]string{"api.openai.com:443", "chatgpt.com:443", "127.0.0.1:4000", "gw.example:443", "llm.corp.example:443"}},
		{"command", map[string]string{"ANTHROPIC_BASE_URL": "http://localhost"}, []string{"localhost:80"}},
		{"command", nil, nil},
	} {
		env = tt.env
		if got := apiHosts(config.AgentConfig{Kind: tt.kind}, getenv); !slices.Equal(got, tt.want) {
			t.Errorf("%s %v: %q, want %q", tt.kind, tt.env, got, tt.want)
		}
	}
}
