package task

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
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

// ValidBranch rejects what cannot be a branch name, by git's rules
// (check-ref-format, as go-git's plumbing checks them): bh must not land on
// "main..x" or a path outside refs/heads.
func ValidBranch(s string) error {
	if plumbing.NewBranchReferenceName(s).Validate() != nil || s == "" {
		return fmt.Errorf("branch %q is not a valid branch name", s)
	}
	return nil
}
