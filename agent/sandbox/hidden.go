package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// DefaultHidden are the places under home where the user's credentials
// and browsers live: no agent sees them.
var DefaultHidden = []string{
	"~/.ssh", "~/.aws", "~/.gnupg", "~/.config/gh", "~/.netrc", "~/.docker", "~/.kube", "~/.git-credentials",
	"~/.config/git/credentials", "~/.password-store", "~/.config/gcloud", "~/.azure", "~/.npmrc", "~/.pypirc",
	"~/.cargo/credentials", "~/.cargo/credentials.toml", "~/.gem/credentials", "~/.local/share/keyrings",
	"~/.mozilla", "~/.config/google-chrome", "~/.config/chromium", "~/.config/BraveSoftware",
	"~/.config/microsoft-edge", "~/snap/firefox", "~/snap/chromium",
}

// Expand makes p absolute: ~ is home, and a relative path is under base.
// A path under an unknown home is "".
func Expand(p, home, base string) string {
	switch {
	case home == "" && (p == "~" || strings.HasPrefix(p, "~/")):
		return ""
	case p == "~":
		return home
	case len(p) > 1 && p[:2] == "~/":
		return filepath.Join(home, p[2:])
	case !filepath.IsAbs(p):
		return filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// RuntimeDir is the user's runtime folder (XDG_RUNTIME_DIR), where the
// ssh and gpg agents, the keyring and the session bus listen: hidden too.
func RuntimeDir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return d
	}
	return "/run/user/" + strconv.Itoa(os.Getuid())
}

// Siblings are the other git repositories beside root (such as ~/src/*),
// which an agent working on root has no business reading.
func Siblings(root string) []string {
	parent := filepath.Dir(root)
	if parent == root {
		return nil
	}
	ents, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		p := filepath.Join(parent, e.Name())
		if !e.IsDir() || p == root {
			continue
		}
		if _, err := os.Stat(filepath.Join(p, ".git")); err == nil {
			out = append(out, p)
		}
	}
	return out
}
