package cmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/chromedp/chromedp"
)

// findChromium finds Debian's chromium (or another Chrome), installing it
// where it can (root, with apt); it skips the test under -short only.
func findChromium(t *testing.T) string {
	t.Helper()
	fakeapi.Real(t, "chromium")
	look := func() string {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
			if p, err := exec.LookPath(name); err == nil {
				return p
			}
		}
		return ""
	}
	if p := look(); p != "" {
		return p
	}
	// Tests never install packages: .ci/run does (apt-get install chromium).
	t.Fatal("chromium is needed: apt-get install chromium (.ci/run installs it), or go test -short")
	return ""
}

// browser starts a headless Chromium for the test, closed at its end.
func browser(t *testing.T, chrome string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.NoSandbox,
		chromedp.WindowSize(1100, 820), chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	// The first call starts the browser, which lives as long as the context
	// of that call: this one, not a step's.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", chrome, err)
	}
	return ctx
}

// screenshot keeps the whole page as name in the test's artifacts (go
// test -artifacts keeps them; the path is logged).
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(t.ArtifactDir(), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// waitAsked waits for a task file to say awaiting_input, and returns when
// it was written.
func waitAsked(t *testing.T, path string) time.Time {
	t.Helper()
	for deadline := time.Now().Add(fakeapi.Patience(30 * time.Second)); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), "\nstate: awaiting_input\n") {
			if fi, err := os.Stat(path); err == nil {
				return fi.ModTime()
			}
		}
	}
	t.Fatalf("%s never asked", path)
	return time.Time{}
}
