package cmd

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/chromedp/chromedp"
)

// undoClock is bh serve's undo windows, ended when the test says.
type undoClock struct {
	mu  sync.Mutex
	due []func()
}

func (c *undoClock) after(_ time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := len(c.due)
	c.due = append(c.due, f)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := c.due[i] != nil
		c.due[i] = nil
		return was
	}
}

// elapse ends every undo window still open.
func (c *undoClock) elapse() {
	c.mu.Lock()
	due := c.due
	c.due = make([]func(), len(due)) // all spent: stopping one now says so
	c.mu.Unlock()
	for _, f := range due {
		if f != nil {
			f()
		}
	}
}

// A gate reviewed in headless Chromium, with the real claude against a
// fake Messages API: the run's steps appear on the task's page while the
// agent works; approving from the inbox with j and a asks first, since the
// change was not opened; the approval is held with an Undo, and undone,
// nothing was recorded or landed; a comment on a line of the diff goes
// with a Reject and reaches claude's resumed request with its file and
// line; files marked viewed stay so; the next approval lands once its
// window ends.
func TestServeReviewInBrowser(t *testing.T) {
	chrome := findChromium(t)
	const review, café = "parser.go, line 1: name it tidy", "docs/café.md, line 2: say it plainly"
	var generated strings.Builder // a generated file, long: folded, and fetched when opened
	for i := 1; i <= 1500; i++ {
		fmt.Fprintf(&generated, "const Generated%04d = %d\n", i, i)
	}
	completed := func(summary string) fakeapi.Turn {
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": summary, "confidence": 0.9}))
	}
	turns := []fakeapi.Turn{
		fakeapi.Reply(fakeapi.Text("Reading the parser, then writing it."), fakeapi.Write("parser.go", "package parser\n"),
			fakeapi.Write("docs/café.md", "# Café\nThe menu, in short.\n"), fakeapi.Write("gen/consts.go", "package gen\n\n"+generated.String())),
		completed("Wrote parser.go."),
		fakeapi.Reply(fakeapi.Write("parser.go", "package tidy\n")),
		completed("Renamed the package."),
	}
	working, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		if req.N == 2 { // the first run's end waits while the page shows its steps
			close(working)
			<-release
		}
		if req.N < 1 || req.N > len(turns) {
			return fakeapi.Reply(fakeapi.Text("ok"))
		}
		return turns[req.N-1]
	})
	root := t.TempDir()
	bin := binE2E(t, root)
	for _, kv := range append(fakeapi.Env(t, srv), "PATH="+bin+":"+os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1") {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	dir := filepath.Join(root, "shop")
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: claude\n  binary: "+fakeapi.Claude(t)+"\n  timeout: "+realTimeout+"\n")
	id := strings.TrimSpace(bhE2E(t, dir, "add", "Tidy the parser", "--gate", "approval"))
	clock := &undoClock{}
	conf := serveInProcess(t, dir, &ServeOptions{Listen: "127.0.0.1:0", AfterFunc: clock.after})
	page := conf.URL + "/r/" + config.RepoKey(dir) + "/t/" + id

	ctx := browser(t, chrome)
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		step, cancel := context.WithTimeout(ctx, fakeapi.Patience(30*time.Second))
		defer cancel()
		if err := chromedp.Do(step, actions...); err != nil {
			loc, _ := chromedp.Run(ctx, chromedp.Location())
			html, _ := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("main")))
			t.Fatalf("%s: %v\nat %s:\n%s", what, err, loc, html)
		}
	}
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }
	waiting := func(when string) {
		t.Helper()
		tk := bhTask(t, dir, id)
		if q := tk.OpenQuestions(); tk.State != task.AwaitingInput || len(q) != 1 || !q[0].Gate {
			t.Fatalf("%s: %s, waiting on %+v", when, tk.State, q)
		}
		if _, err := os.Stat(filepath.Join(dir, "parser.go")); err == nil {
			t.Fatalf("%s: the work landed", when)
		}
	}

	// The run, live: the agent's words on the page while it waits.
	run("open the task", chromedp.Navigate(conf.URL+"/?token="+conf.Token), chromedp.WaitVisible(css(`#conn.on`)),
		chromedp.Navigate(page), chromedp.WaitVisible(css(`#conn.on`)))
	worker := exec.Command("bh", "worker", "--once")
	worker.Dir = dir
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { worker.Process.Kill(); worker.Wait() })
	<-working
	run("the run's steps come without a reload", until(
		`(document.querySelector("ol.transcript") || {innerText: ""}).innerText.includes("Reading the parser")`))
	once.Do(func() { close(release) })
	if err := worker.Wait(); err != nil {
		t.Fatalf("bh worker: %v", err)
	}
	run("the gate comes, the run kept above it", chromedp.WaitVisible(css(`pre.diff span.add`)),
		until(`document.querySelector("ol.transcript").innerText.includes("Wrote parser.go")`))
	// The diff's lines are numbered and coloured; the generated file is
	// folded, its lines not on the page until it is opened.
	const big = `details.file[data-path="gen/consts.go"]`
	run("numbered, coloured, the long file folded", chromedp.WaitVisible(css(`details.file[data-path="parser.go"] span[data-line="1"] span.lno`)),
		until(`document.querySelector('details.file[data-path="parser.go"] span[data-line="1"] .kn').textContent === "package"`),
		until(`!document.querySelector('`+big+`').open && !document.querySelector('`+big+` pre')`),
		until(`!document.documentElement.outerHTML.includes("Generated0001")`))
	if size, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.outerHTML.length`)); err == nil {
		t.Logf("the gate's page, its long file folded: %d characters", size)
	}
	run("the long file opened is fetched", click(big+` summary`),
		chromedp.WaitVisible(css(big+` span[data-line="1502"]`)), click(big+` summary`))

	// The gate's answer link, as a phone opens it: the page looked at, and
	// each address it names opens without the token.
	linkConf, err := config.LoadWebConfig()
	if err != nil {
		t.Fatal(err)
	}
	l, ok := linkConf.NewLink(dir, bhTask(t, dir, id), time.Now())
	if !ok {
		t.Fatal("no link for the gate")
	}
	run("open the answer link", chromedp.Navigate(linkConf.LinkURL(l, config.ViaLink)), chromedp.WaitVisible(css(`form.answer`)),
		click(big+` summary`), chromedp.WaitVisible(css(big+` span[data-line="1502"]`)))
	lookAt(t, ctx, "link")
	refused, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Promise.all([...document.querySelectorAll("a[href], link[href], script[src]")]
		.map(e => e.href || e.src).filter(u => u.startsWith(location.origin))
		.map(u => fetch(u, {credentials: "omit"}).then(r => r.status === 401 || r.status === 404 ? u + ": " + r.status : "")))
		.then(all => all.filter(Boolean))`, chromedp.EvalAwaitPromise))
	if err != nil || len(refused) > 0 {
		t.Errorf("the link's page names addresses it cannot open: %v %v", refused, err)
	}

	// j then a on the inbox: the change was not opened, so it asks.
	before := readE2E(t, dir, ".bh/tasks/"+id+".yaml")
	run("j, a on the inbox", chromedp.Navigate(conf.URL+"/"), chromedp.WaitVisible(css(`li.card[data-task="`+id+`"]`)),
		chromedp.KeyEvent("j"), chromedp.KeyEvent("a"), chromedp.WaitVisible(css(`form.confirm`)))
	waiting("asked before approving")
	lookAt(t, ctx, "confirm")
	run("confirm by keyboard", chromedp.KeyEvent("\r"), chromedp.WaitVisible(css(`form.held`)))
	waiting("held for its undo window")
	lookAt(t, ctx, "held")
	run("undo", click(`form.held button`), until(`document.body.innerText.includes("Undone")`))
	clock.elapse()
	waiting("undone")
	if after := readE2E(t, dir, ".bh/tasks/"+id+".yaml"); after != before {
		t.Fatalf("undone, yet the task file changed:\n%s\nwas:\n%s", after, before)
	}
	bhE2E(t, dir, "worker", "--once")
	waiting("undone, and a worker ran")

	// A comment on a line, a file viewed, then Reject.
	const parser = `details.file[data-path="parser.go"]`
	run("comment on line 1", click(parser+` span[data-line="1"]`),
		chromedp.SendKeys(css(`.lc-edit textarea`), "name it tidy"), click(`.lc-edit button`),
		until(`document.querySelector('`+parser+` ul.lcs').innerText.includes("line 1: name it tidy")`))
	lookAt(t, ctx, "review")
	const viewed = `document.querySelector('` + parser + `').previousElementSibling.querySelector("input[data-viewed]")`
	run("mark it viewed", until(viewed+`.click() || true`), until(`!document.querySelector('`+parser+`').open`),
		chromedp.Reload(), chromedp.WaitVisible(css(`form.answer`)),
		until(viewed+`.checked && !document.querySelector('`+parser+`').open`))
	run("comment again, after the reload, by keyboard", until(`document.querySelector('`+parser+`').open = true`),
		until(`document.querySelector('`+parser+` pre.diff').focus() || true`), chromedp.KeyEvent("\r"),
		until(`document.activeElement.dataset.line === "1"`), chromedp.KeyEvent("\r"),
		until(`document.activeElement.matches(".lc-edit textarea")`), chromedp.SendKeys(css(`.lc-edit textarea`), "name it tidy"),
		click(`.lc-edit button`))
	run("comment on line 2 of docs/café.md: the editor names the line", click(`details.file[data-path="docs/café.md"] span[data-line="2"]`),
		until(`document.querySelector(".lc-edit label").innerText.includes("line 2 of docs/café.md")`),
		chromedp.SendKeys(css(`.lc-edit textarea`), "say it plainly"), click(`.lc-edit button`),
		until(`document.querySelector('details.file[data-path="docs/café.md"] ul.lcs').innerText.includes("line 2: say it plainly")`))
	run("reject", click(`form.answer button.no`), until(`document.body.innerText.includes("is saved")`))
	tk := bhTask(t, dir, id)
	if q := tk.Questions[len(tk.Questions)-1]; len(q.Comments) != 2 || q.Comments[0] != (task.LineComment{Path: "parser.go", Line: 1, Text: "name it tidy"}) ||
		q.Comments[1] != (task.LineComment{Path: "docs/café.md", Line: 2, Text: "say it plainly"}) {
		t.Fatalf("the rejection's comments: %+v", q)
	}
	bhE2E(t, dir, "worker", "--once")
	// The comment is in the request of the resumed session: the one that
	// carries the first run's tool calls.
	for _, said := range []string{review, café} {
		resumed := false
		for _, req := range srv.Requests() {
			if strings.Contains(req.Prompt(), said) {
				resumed = resumed || slices.ContainsFunc(req.ToolUses(), func(b fakeapi.Block) bool { return b.Name == "Write" })
			}
		}
		if !resumed {
			t.Errorf("no request of claude's resumed session has %q", said)
		}
	}

	// Approved on its page, the change open: held, then recorded and landed.
	run("approve on the page", chromedp.Navigate(page), chromedp.WaitVisible(css(`pre.diff span.add`)),
		click(`form.answer button.yes`), chromedp.WaitVisible(css(`form.held`)))
	waiting("the second approval, held")
	clock.elapse()
	run("recorded once its window ends", until(`!document.querySelector("form.held")`))
	bhE2E(t, dir, "worker", "--once")
	if got := readE2E(t, dir, "parser.go"); !strings.Contains(got, "package tidy") {
		t.Errorf("landed parser.go: %q", got)
	}
}
