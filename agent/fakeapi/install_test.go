package fakeapi

import (
	"path/filepath"
	"testing"
)

func TestClaudeIsInstalled(t *testing.T) {
	bin := Claude(t)
	if !filepath.IsAbs(bin) {
		t.Fatalf("Claude() = %q, want an absolute path", bin)
	}
	if err := checkClaude(bin); err != nil {
		t.Fatal(err)
	}
}
