package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBhLinksNoWebInbox: the web inbox's libraries build their tables in
// every program that links them, at its start; bh leaves the inbox to
// bh-web, which its serve runs (cmd/serve.go).
func TestBhLinksNoWebInbox(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		for _, inbox := range []string{"github.com/bh-tracker/bh/cmd/web", "github.com/yuin/goldmark", "github.com/alecthomas/chroma"} {
			if p == inbox || strings.HasPrefix(p, inbox+"/") && !strings.HasPrefix(p, "github.com/bh-tracker/bh/cmd/web/webopts") {
				t.Errorf("bh links %s", p)
			}
		}
	}
}
