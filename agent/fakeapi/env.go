package fakeapi

import (
	"os"
	"path/filepath"
	"testing"
)

// Env returns the extra environment for running claude against srv: a fresh
// HOME (claude keeps sessions under $HOME/.claude/projects/<cwd>, so a resume
// must reuse the same Env), the fake endpoint and key, and switches that keep
// claude offline, quiet and quick to give up.
func Env(t testing.TB, srv *Server) []string {
	t.Helper()
	home := t.TempDir()
	tmp := filepath.Join(home, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatalf("fakeapi: %v", err)
	}
	return append(homeEnv(home),
		"TMPDIR="+tmp,
		"CLAUDE_CODE_TMPDIR="+tmp,
		"CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"),
		"ANTHROPIC_BASE_URL="+srv.URL,
		"ANTHROPIC_API_KEY=test-key",
		// Credentials or providers inherited from the developer's shell would
		// route claude elsewhere; empty values read as unset.
		"ANTHROPIC_AUTH_TOKEN=",
		"CLAUDE_CODE_OAUTH_TOKEN=",
		"CLAUDE_CODE_USE_BEDROCK=",
		"CLAUDE_CODE_USE_VERTEX=",
		"CLAUDE_CODE_USE_FOUNDRY=",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_MAX_RETRIES=0",
	)
}

// homeEnv points HOME and the XDG folders into home.
func homeEnv(home string) []string {
	return []string{"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state")}
}
