package cmd

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd/web"
	"github.com/bh-tracker/bh/task/config"
)

// Without --public-url, on loopback, bh serve warns that the links it
// sends cannot be opened from a phone; with it, it says nothing of the kind.
func TestServeWarnsOfLoopbackLinks(t *testing.T) {
	for _, public := range []string{"", "https://laptop.tailnet.ts.net"} {
		t.Setenv("XDG_CONFIG_HOME", t.TempDir())
		dir := t.TempDir()
		f := newFactory()
		io, _, _, errOut := testIO()
		f.IO, f.WorkDir = io, func() (string, error) { return dir, nil }
		ctx, stop := context.WithCancel(context.Background())
		opts := &ServeOptions{Listen: "127.0.0.1:0", PublicURL: public, Inbox: web.Inbox}
		opts.base, opts.Ctx = f.base(), ctx
		done := make(chan error, 1)
		go func() { done <- serveRun(opts) }()
		for deadline := time.Now().Add(fakeapi.Patience(10 * time.Second)); ; time.Sleep(10 * time.Millisecond) {
			if conf, _ := config.LoadWebConfig(); conf.URL != "" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("bh serve saved no address")
			}
		}
		stop()
		if err := <-done; err != nil {
			t.Fatalf("bh serve: %v", err)
		}
		warned := strings.Contains(errOut.String(), "links in notifications point at http://127.0.0.1:") &&
			strings.Contains(errOut.String(), "hint: set --public-url")
		if warned != (public == "") {
			t.Errorf("--public-url %q: bh serve said\n%s", public, errOut.String())
		}
	}
}

// TestServeWithoutBhWeb: bh, which links no web inbox, finds no bh-web
// beside it or on PATH, and says how to build one.
func TestServeWithoutBhWeb(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := serveRun(&ServeOptions{base: base{Args: []string{"serve"}}})
	if err == nil || err.Error() != "bh serve needs bh-web, bh with its web inbox, beside bh or on PATH" {
		t.Fatalf("got %v", err)
	}
	var h interface{ Hint() string }
	if !errors.As(err, &h) || !strings.Contains(h.Hint(), "go build -o") || !strings.Contains(h.Hint(), "./cmd/web/bh-web") {
		t.Errorf("no hint to build it: %v", err)
	}
}
