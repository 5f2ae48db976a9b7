package sandbox

import (
	"path/filepath"
	"strings"
)

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
