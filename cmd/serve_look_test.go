package cmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeScript is axe-core's script: $BH_AXE_JS, else where .ci/run installs
// it with npm (.cache/axe, at the module's root). Not found, the test
// fails in CI ($CI or $BH_AXE_JS set); elsewhere nil, and the pages are
// looked at without it (logged, with the command that installs it).
func axeScript(t *testing.T) []byte {
	t.Helper()
	path := os.Getenv("BH_AXE_JS")
	if path == "" {
		path = filepath.Join("..", ".cache", "axe", "node_modules", "axe-core", "axe.min.js")
	}
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		return b
	case os.Getenv("CI") != "" || os.Getenv("BH_AXE_JS") != "":
		t.Fatalf("axe-core: %v (.ci/run installs it)", err)
	}
	t.Logf("axe-core is not installed, the pages are not checked with it: npm install --prefix .cache/axe axe-core@%s (as .ci/run does), or set BH_AXE_JS", axeVersion)
	return nil
}

// axeVersion is the axe-core release .ci/run installs.
const axeVersion = "4.14.1"

// readmeShots are the screenshots the README shows.
var readmeShots = map[string]bool{"inbox-desktop": true, "task-phone": true}

// lookAt checks the page the browser shows at a desktop's and a phone's
// size (360 px wide), in the light and the dark theme: nothing wider than
// the screen, the history's text column in view, and no violation at all
// that axe-core finds (WCAG 2 A and AA: contrast, labels,
// legends, names). With BH_SCREENSHOTS=1 it writes the
// README's light screenshots again (cmd/web/testdata/<name>-<size>.png).
func lookAt(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	axe := axeScript(t)
	for _, size := range []struct {
		name string
		w, h int64
		opts []chromedp.EmulateViewportOption
	}{{"desktop", 1280, 800, nil}, {"phone", 360, 800, []chromedp.EmulateViewportOption{chromedp.EmulateMobile, chromedp.EmulateTouch}}} {
		for _, scheme := range []string{"light", "dark"} {
			at := fmt.Sprintf("%s at %dx%d, %s", name, size.w, size.h, scheme)
			media := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
				return err
			})
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(size.w, size.h, size.opts...), media); err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			wide, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const d = document.documentElement;
				return d.scrollWidth > d.clientWidth ? d.scrollWidth + "px wide in " + d.clientWidth + "px" : "" })()`))
			if err != nil || wide != "" {
				t.Errorf("%s: the page overflows: %s %v", at, wide, err)
			}
			// The history's text column stays in view, however narrow.
			hidden, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".history td.text")]
				.filter(td => { const r = td.getBoundingClientRect(); return td.textContent.trim() && (r.width < 100 || r.right > innerWidth) })
				.map(td => td.textContent)`))
			if err != nil || len(hidden) > 0 {
				t.Errorf("%s: the history's text column is out of view: %q %v", at, hidden, err)
			}
			if axe != nil {
				axeCheck(t, ctx, at, axe)
			}
			shot := fmt.Sprintf("%s-%s-%s.png", name, size.name, scheme)
			screenshot(t, ctx, shot)
			if kept := readmeShots[name+"-"+size.name]; kept && os.Getenv("BH_SCREENSHOTS") == "1" && scheme == "light" {
				png, _ := os.ReadFile(filepath.Join(t.ArtifactDir(), shot))
				os.WriteFile(filepath.Join("..", "cmd", "web", "testdata", name+"-"+size.name+".png"), png, 0o644)
			}
		}
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1100, 820)); err != nil {
		t.Fatal(err)
	}
}

// axeCheck runs axe-core in the page: every violation it finds (WCAG 2 A
// and AA) fails the test, whatever its impact.
func axeCheck(t *testing.T, ctx context.Context, at string, axe []byte) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](string(axe)+";true")); err != nil {
		t.Fatalf("%s: load axe-core: %v", at, err)
	}
	found, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"]}})
		.then(r => r.violations.map(v => v.id + ": " + v.help + ": " + v.nodes.map(n => n.target.join(" ")).join(", ")))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: axe-core: %v", at, err)
	}
	for _, v := range found {
		t.Errorf("%s: %s", at, v)
	}
}
