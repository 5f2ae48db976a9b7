package cmd

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
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
		opts := &ServeOptions{Listen: "127.0.0.1:0", PublicURL: public}
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
