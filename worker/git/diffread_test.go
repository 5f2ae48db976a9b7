package git

import (
	"strings"
	"testing"
)

func TestDiffLines(t *testing.T) {
	got, cut := diffLines("diff --git a/x b/x\nindex 1..2\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n c\n")
	var classes []string
	for _, l := range got {
		classes = append(classes, l.Class)
	}
	if strings.Join(classes, " ") != "meta meta meta meta hunk del add ctx" || cut {
		t.Errorf("classes %v, cut %v", classes, cut)
	}
	if _, cut := diffLines(strings.Repeat("+x\n", maxDiff+1)); !cut {
		t.Error("a long diff is not cut")
	}
}
