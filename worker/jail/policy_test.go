package jail

import (
	"slices"
	"strings"
	"testing"
)

// TestToolchains: the folders on PATH are readable, and for a bin folder
// its toolchain, but never the home, ~/.local or ~/.cargo (whose
// credentials stay out: rustup's toolchains instead).
func TestToolchains(t *testing.T) {
	for _, tt := range []struct {
		path, rustup string
		want         []string
	}{
		{"/usr/local/go/bin:/usr/bin", "", []string{"/usr/local/go/bin", "/usr/local/go", "/usr/bin"}},
		{"/h/go/bin:/h/bin:/h/.local/bin", "", []string{"/h/go/bin", "/h/go", "/h/bin", "/h/.local/bin"}},
		{"/h/.nvm/versions/node/v22/bin:/opt/x/bin", "", []string{"/h/.nvm/versions/node/v22/bin", "/h/.nvm/versions/node/v22",
			"/opt/x/bin", "/opt/x"}},
		{"/h/.cargo/bin", "", []string{"/h/.cargo/bin", "/h/.rustup"}},
		{"/h/.cargo/bin", "/r", []string{"/h/.cargo/bin", "/r"}},
		{"relative/bin:/h/.pyenv/shims", "", []string{"/h/.pyenv/shims"}},
	} {
		env := map[string]string{"HOME": "/h", "PATH": tt.path, "RUSTUP_HOME": tt.rustup}
		if got := Toolchains(func(k string) string { return env[k] }); !slices.Equal(got, tt.want) {
			t.Errorf("PATH=%s: %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestGitConfig: the sandbox's .gitconfig holds the user's name and
// email, quoted, and nothing else.
func TestGitConfig(t *testing.T) {
	got := string(gitConfig(func() (string, string) { return "A \"B\" \\ C\n[core]", "a@b" }))
	want := "[user]\n\tname = \"A \\\"B\\\" \\\\ C[core]\"\n\temail = \"a@b\"\n"
	if got != want {
		t.Errorf("gitconfig:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(string(gitConfig(nil)), "user") {
		t.Errorf("no identity, yet a [user]")
	}
}
