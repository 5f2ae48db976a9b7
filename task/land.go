package task

import (
	"fmt"
	"path"
	"strings"
)

// How finished work reaches its target branch.
const (
	LandMerge  = "merge"  // fast-forward the target, rebasing first when it moved (the default)
	LandBranch = "branch" // keep the commit on bh/<id> for review; bh land <id> lands it
	LandPR     = "pr"     // push bh/<id> and open a pull request with gh; the worker shepherds it
)

// ValidLand checks a land: value.
func ValidLand(s string) error {
	if s != "" && s != LandMerge && s != LandBranch && s != LandPR {
		return fmt.Errorf("land %q: want %s, %s or %s", s, LandMerge, LandBranch, LandPR)
	}
	return nil
}

// ValidBranch rejects what cannot be a branch name, by git's main rules
// (check-ref-format): bh must not land on "main..x" or a path outside refs/heads.
func ValidBranch(s string) error {
	bad := s == "" || s == "@" || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "/") ||
		strings.HasSuffix(s, "/") || strings.HasSuffix(s, ".") || strings.HasSuffix(s, ".lock") ||
		strings.Contains(s, "..") || strings.Contains(s, "@{") || strings.Contains(s, "//") ||
		strings.ContainsAny(s, " ~^:?*[\\\x7f") || strings.HasPrefix(path.Base(s), ".")
	for _, r := range s {
		bad = bad || r < 0x20
	}
	if bad {
		return fmt.Errorf("branch %q is not a valid branch name", s)
	}
	return nil
}
