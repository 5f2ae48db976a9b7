package task

import "testing"

func TestValidBranch(t *testing.T) {
	for _, s := range []string{"main", "feature/x", "release-1.2", "bh/tm-a1b2"} {
		if err := ValidBranch(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, s := range []string{"", "@", "-x", "/x", "x/", "x.", "x.lock", "main..x", "a@{1}", "a//b", "a b", "a~1",
		"a^", "a:b", "a?", "a*", "a[b", `a\b`, "a\x7f", "a\tb", ".x", "a/.x"} {
		if ValidBranch(s) == nil {
			t.Errorf("%q is taken for a branch", s)
		}
	}
}
