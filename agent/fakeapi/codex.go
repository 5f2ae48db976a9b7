package fakeapi

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// CodexVersion is the Codex CLI release the tests are written against.
const CodexVersion = "0.169.0"

var codex = &tool{name: "codex", pkg: "@openai/codex", version: CodexVersion, envVar: "BH_CODEX_BIN"}

// Codex returns the absolute path of the real codex binary: $BH_CODEX_BIN
// when set, else <module root>/.cache/codex, installed there with npm on
// first use, and skips under -short, as Claude does.
func Codex(t testing.TB) string {
	t.Helper()
	return codex.bin(t)
}

// CodexEnv returns the extra environment for running codex against srv: a
// fresh HOME and CODEX_HOME (codex keeps its threads under
// $CODEX_HOME/sessions, so a resume must reuse the same env) whose
// config.toml routes the model to srv. The built-in OpenAI provider
// ignores OPENAI_BASE_URL; a provider of our own does not, and with
// retries off an HTTP error ends the run at once.
func CodexEnv(t testing.TB, srv *Responses) []string {
	t.Helper()
	home := t.TempDir()
	codexHome := filepath.Join(home, ".codex")
	// With a system bwrap, codex sandboxes its commands through helper
	// links it makes in CODEX_HOME, and it refuses to make them under the
	// temp dir, where a test's HOME is: a TMPDIR of the test's own keeps
	// CODEX_HOME out of it (else every exec_command fails to start).
	tmp := filepath.Join(home, "tmp")
	for _, d := range []string{codexHome, tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatalf("fakeapi: %v", err)
		}
	}
	config := fmt.Sprintf(`model_provider = "fake"
model = "gpt-fake"

[model_providers.fake]
name = "fake"
base_url = %q
env_key = "OPENAI_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`, srv.URL+"/v1")
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatalf("fakeapi: %v", err)
	}
	return append(homeEnv(home), "CODEX_HOME="+codexHome, "TMPDIR="+tmp, "OPENAI_API_KEY=test-key", "OPENAI_BASE_URL=")
}
