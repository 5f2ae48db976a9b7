package cmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/chromedp/chromedp"
)

// The plans of the agent behind the browser test, besides the answer
// matrix's (webRows): a gated completion, and a run that waits for a file
// before it asks.
const (
	planReport = `match Write the report
write report.txt first draft of the report
print {"status":"completed","summary":"wrote report.txt"}
`
	planRelease = `match Name the release
on first
hang
print {"status":"needs_input","summary":"naming","question":"What should the release be called?","questionContext":"The last three were named after rivers."}
on resume
print {"status":"completed","summary":"named it"}
`
	browserNow = "2026-03-01T09:30:00Z"
)

// bh serve in a real browser: headless Chromium opens the inbox with its
// token, sees a run start and its question arrive from another process
// without a reload, and leave when bh respond answers it; then it answers
// an approval gate and the web rows of the answer matrix (webRows), one
// page load per task. The task files then hold exactly what bh respond
// writes for the same answers, but for who answered, and each resumed
// agent reads exactly the answers given.
func TestServeInBrowser(t *testing.T) {
	chrome := findChromium(t)
	root := t.TempDir()
	bin := binE2E(t, root)
	agentDir := filepath.Join(root, "agent")
	os.MkdirAll(agentDir, 0o755)
	writeE2E(t, agentDir, "report.plan", planReport)
	writeE2E(t, agentDir, "release.plan", planRelease)
	for k, v := range map[string]string{"PATH": bin + ":" + os.Getenv("PATH"), "FAKEAGENT_DIR": agentDir,
		"XDG_STATE_HOME": filepath.Join(root, "state"), "XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"GIT_CONFIG_NOSYSTEM": "1", "HOME": root, "BH_SANDBOX": "off"} { // the fake agent's dir is in root
		t.Setenv(k, v)
	}
	config := "prefix: tm\nagent:\n  kind: command\n  command: [fakeagent]\n"
	dir := filepath.Join(root, "shop")
	repoE2E(t, dir, config)
	rows := addWebRows(t, dir, agentDir)
	db := rows[0] // SQLite with a comment: the bug case
	report := strings.TrimSpace(bhE2E(t, dir, "add", "Write the report", "--gate", "approval", "--priority", "P0"))
	bhE2E(t, dir, "worker", "--once")
	release := strings.TrimSpace(bhE2E(t, dir, "add", "Name the release"))
	// The same two tasks in a repository of their own, for bh respond.
	twin := filepath.Join(root, "twin")
	twinEnv := []string{"XDG_CONFIG_HOME=" + filepath.Join(root, "twin-config"), "BH_NOW=" + browserNow}
	os.MkdirAll(filepath.Join(twin, ".bh", "tasks"), 0o755)
	gitE2E(t, twin, "init", "-q")
	for _, f := range []string{"config.yaml", "tasks/" + db + ".yaml", "tasks/" + report + ".yaml"} {
		writeE2E(t, twin, ".bh/"+f, readE2E(t, dir, ".bh/"+f))
	}

	// The undo window shortened (a test hook): the approval below is held,
	// then recorded, without waiting 10 s (TestGateAsksThenHolds proves
	// the 10 s).
	serve, addr := serveProcess(t, dir, "BH_NOW="+browserNow, "BH_TEST_UNDO_WINDOW=50ms")
	site, _, _ := strings.Cut(addr, "/?token=")

	ctx := browser(t, chrome)
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		step, cancel := context.WithTimeout(ctx, fakeapi.Patience(20*time.Second))
		defer cancel()
		if err := chromedp.Do(step, actions...); err != nil {
			loc, _ := chromedp.Run(ctx, chromedp.Location())
			html, _ := chromedp.Run(ctx, chromedp.OuterHTML(css("main")))
			screenshot(t, ctx, "failed.png")
			t.Fatalf("%s: %v\nat %s:\n%s", what, err, loc, html)
		}
	}
	run("open the inbox with the token", chromedp.Navigate(addr),
		chromedp.WaitVisible(css(`li[data-task="`+db+`"]`)),
		chromedp.WaitVisible(css(`li[data-task="`+report+`"]`)),
		chromedp.WaitVisible(css(`#conn.on`)),
	)
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('a[href*="/t/`+report+`"]').getAttribute("href")`))
	if err != nil {
		t.Fatal(err)
	}
	repoPath, _, _ := strings.Cut(href, "/t/")
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded = true`)); err != nil {
		t.Fatal(err)
	}
	if loc != site+"/" {
		t.Errorf("the inbox is at %s, want %s/ (the token out of the address)", loc, site)
	}

	// Another process: a worker whose agent starts, waits, then asks.
	worker := exec.Command("bh", "worker", "--once")
	worker.Dir = dir
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	run("the run appears", chromedp.WaitVisible(css(`li.running[data-task="`+release+`"]`)))
	writeE2E(t, agentDir, "release", "")
	asked := waitAsked(t, filepath.Join(dir, ".bh", "tasks", release+".yaml"))
	run("the question appears", chromedp.WaitVisible(css(`li[data-task="`+release+`"][data-question]`)))
	// Logged, not asserted: BenchmarkEventLatency (cmd/web) measures it.
	t.Logf("the question was on the page %v after its task file was written", time.Since(asked))
	if err := worker.Wait(); err != nil {
		t.Fatalf("bh worker: %v", err)
	}
	run("the run is over", chromedp.WaitNotPresent(css(`li.running`)))
	if notReloaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded === true`)); err != nil || !notReloaded {
		t.Error("the page was reloaded: live updates must come without one")
	}
	screenshot(t, ctx, "inbox.png")
	// One card per task, the most urgent first: the P0 gate, though added
	// after the others.
	cards, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("li.card:not(.running):not(.attention)")].map(li => li.dataset.priority + " " + li.dataset.task)`))
	if err != nil || len(cards) != len(rows)+2 || cards[0] != "P0 "+report {
		t.Errorf("the inbox's cards: %v (%v), want one per waiting task, %s first", cards, err, report)
	}
	seen := map[string]bool{}
	for _, c := range cards {
		if seen[c] {
			t.Errorf("two cards for %s", c)
		}
		seen[c] = true
	}
	lookAt(t, ctx, "inbox")
	// An answer given elsewhere takes the question off the page.
	respond := exec.Command("bh", "respond", release, "Kestrel")
	respond.Dir = dir
	if out, err := respond.CombinedOutput(); err != nil {
		t.Fatalf("bh respond: %v %s", err, out)
	}
	run("the question answered elsewhere leaves", chromedp.WaitNotPresent(css(`li[data-task="`+release+`"]`)))

	run("open the gate", click(`li[data-task="`+report+`"] a`),
		chromedp.WaitVisible(css(`pre.diff span.add`)))
	screenshot(t, ctx, "task.png")
	lookAt(t, ctx, "task")
	// The approval lands: held for its undo window (shortened: whether
	// the page shows it held is TestServeReviewInBrowser's), then recorded.
	run("approve the gate", click(`button.yes`), chromedp.WaitVisible(css(`p.answered`)))
	// A page of four questions, and one of markdown, looked at before
	// they are answered.
	for i, name := range map[int]string{6: "questions", 7: "markdown"} {
		run("open "+name, chromedp.Navigate(site+repoPath+"/t/"+rows[i]), chromedp.WaitVisible(css(`form.answer`)))
		lookAt(t, ctx, name)
	}
	answerWebRows(t, dir, rows, func(id string) string { return site + repoPath + "/t/" + id }, run)
	if pwned, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.pwned === true`)); err != nil || pwned {
		t.Errorf("the question's <script> ran (%v)", err)
	}
	// The figures of the answers just given, linked from every page.
	run("open the insights", chromedp.Navigate(site+"/"), click(`header a[href="/insights"]`),
		chromedp.WaitVisible(css(`svg.chart rect.bar`)))
	lookAt(t, ctx, "insights")

	serve.Process.Signal(os.Interrupt)
	if err := serve.Wait(); err != nil {
		t.Errorf("bh serve after Ctrl-C: %v", err)
	}
	for _, args := range [][]string{{"respond", db, "--choice", "SQLite", "one file is enough for now"}, {"respond", report, "--yes"}} {
		c := exec.Command("bh", args...)
		c.Dir, c.Env = twin, append(os.Environ(), twinEnv...)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("bh %v: %v %s", args, err, out)
		}
	}
	web := regexp.MustCompile(`by: web:\S+`)
	for _, id := range []string{db, report} {
		got, want := readE2E(t, dir, ".bh/tasks/"+id+".yaml"), readE2E(t, twin, ".bh/tasks/"+id+".yaml")
		if !web.MatchString(got) {
			t.Errorf("%s: no answer by web:<user>:\n%s", id, got)
		}
		if got = web.ReplaceAllString(got, "by: human"); got != want {
			t.Errorf("%s answered in the browser:\n%s\nby bh respond:\n%s", id, got, want)
		}
	}
	// The answered tasks resume, each agent with the answers given.
	bhE2E(t, dir, "worker", "--once")
	checkWebResumed(t, agentDir, rows)
}
