package worker

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func TestDemo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	var kinds []string
	err := RunDemo(context.Background(), dir, func(e Event) { kinds = append(kinds, string(e.Kind)+":"+string(e.Outcome)) })
	if err != nil {
		t.Fatal(err)
	}
	log := gitT(t, dir, "log", "--format=%s")
	if n := strings.Count(log, "\n") + 1; n != 4 {
		t.Fatalf("demo log:\n%s", log)
	}
	if !exists(dir, "LICENSE") || !exists(dir, "hello.sh") || gitT(t, dir, "status", "--porcelain", "--", "LICENSE", "NOTICE") != "" {
		t.Fatal("demo's files not committed")
	}
	want := "started: finished:completed started: finished:needs_input answered: started: finished:completed"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("demo events:\n got %s\nwant %s", got, want)
	}
}
