package cmd

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/chromedp/chromedp"
)

// actTasks are the tasks of TestServeActsInBrowser, asked and updated
// moments ago (AT).
const actTasks = `-- tm-ask1 --
id: tm-ask1
title: Drop the legacy table
type: code
priority: P1
state: awaiting_input
questions:
  - id: q1
    question: May I drop the legacy table?
    type: approval
    status: pending
    askedAt: AT
createdAt: AT
updatedAt: AT
-- tm-ask2 --
id: tm-ask2
title: Ship the release
type: code
priority: P0
state: awaiting_input
questions:
  - id: q1
    question: Ship it?
    type: approval
    status: pending
    askedAt: AT
createdAt: AT
updatedAt: AT
-- tm-ask3 --
id: tm-ask3
title: Name the database
type: code
priority: P2
state: awaiting_input
questions:
  - id: q1
    question: What should the database be called?
    type: freeform
    status: pending
    askedAt: AT
createdAt: AT
updatedAt: AT
-- tm-run1 --
id: tm-run1
title: Index the shop
type: code
priority: P2
state: in_progress
lease:
  worker: w1
  pid: 1
  host: here
  heartbeat: AT
  startedAt: AT
createdAt: AT
updatedAt: AT
-- tm-fail1 --
id: tm-fail1
title: Break the build
type: code
priority: P1
state: failed
summary: the tests do not pass
issues:
  - go vet fails on parser.go
createdAt: AT
updatedAt: AT
`

// bh serve's pages as places to act, in headless Chromium: a notification's
// capability link opens its task's page with no cookie and answers once,
// then is refused, and an expired one is refused; a running task's page
// shows the agent's steps as they come and stops it; a failed task's page
// shows the agent's summary and issues and reopens it; the inbox moves
// with j and k, approves with a and opens with Enter.
func TestServeActsInBrowser(t *testing.T) {
	chrome := findChromium(t)
	root := t.TempDir()
	for k, v := range map[string]string{"XDG_STATE_HOME": filepath.Join(root, "state"),
		"XDG_CONFIG_HOME": filepath.Join(root, "config"), "GIT_CONFIG_NOSYSTEM": "1", "HOME": root} {
		t.Setenv(k, v)
	}
	dir := filepath.Join(root, "shop")
	repoE2E(t, dir, "prefix: tm\n")
	at := time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
	for id, body := range splitTxtar(strings.ReplaceAll(actTasks, "AT", at)) {
		writeE2E(t, dir, ".bh/tasks/"+id+".yaml", body)
	}
	s, err := store.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	store.AppendStep(s, store.StepLine{At: time.Now(), TaskID: "tm-run1", Step: "Read parser.go"})
	conf := serveInProcess(t, dir, &ServeOptions{Listen: "127.0.0.1:0"})
	page := conf.URL + "/r/" + config.RepoKey(s.Root) + "/t/"

	ctx := browser(t, chrome)
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		step, cancel := context.WithTimeout(ctx, fakeapi.Patience(20*time.Second))
		defer cancel()
		if err := chromedp.Do(step, actions...); err != nil {
			loc, _ := chromedp.Run(ctx, chromedp.Location())
			html, _ := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("main")))
			t.Fatalf("%s: %v\nat %s:\n%s", what, err, loc, html)
		}
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return v
	}
	stateOf := func(id string) *task.Task {
		t.Helper()
		tk, err := s.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}

	// (a) The link as a notification carries it; this browser never had
	// bh serve's token, so it has no cookie.
	ask1 := stateOf("tm-ask1")
	l, ok := conf.NewLink(s.Root, ask1, time.Now())
	if !ok {
		t.Fatal("no link for tm-ask1")
	}
	expired := l
	expired.ID, expired.Expires = "expired1", time.Now().Add(-time.Minute).Unix()
	run("an expired link is refused", chromedp.Navigate(conf.LinkURL(expired, config.ViaLink)),
		chromedp.WaitVisible(chromedp.CSS("main")))
	if got := text("main"); !strings.Contains(got, "This link cannot answer") || !strings.Contains(got, "expired") {
		t.Errorf("the expired link's page:\n%s", got)
	}
	link := conf.LinkURL(l, config.ViaLink)
	run("the link opens the task's page", chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS(`form.answer button.yes`)))
	if cookies, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.cookie`)); err != nil || cookies != "" {
		t.Errorf("the phone has cookies %q (%v): the link must work without", cookies, err)
	}
	if got := text("main"); !strings.Contains(got, "May I drop the legacy table?") {
		t.Errorf("the link's page:\n%s", got)
	}
	run("approve through the link", click(`form.answer button.yes`),
		chromedp.WaitVisible(chromedp.CSS(`main`)))
	run("the answer is recorded", until(`document.body.innerText.includes("Your answer is recorded")`))
	if tk := stateOf("tm-ask1"); tk.State != task.Open || tk.Questions[0].Status != task.QuestionAnswered {
		t.Fatalf("after the link's answer: %s, q1 %s", tk.State, tk.Questions[0].Status)
	} else if e, ok := tk.LastAnswer("q1"); !ok || e.By != config.ViaLink || e.Text != "yes" {
		t.Errorf("the answer recorded: %+v", e)
	}
	run("the link again", chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS("main")))
	if got := text("main"); !strings.Contains(got, "This link cannot answer") || strings.Contains(got, "Approve") {
		t.Errorf("the used link's page:\n%s", got)
	}

	// (b) A running task: the agent's steps as they come, and Stop.
	run("open the running task with the token", chromedp.Navigate(conf.URL+"/?token="+conf.Token),
		chromedp.WaitVisible(chromedp.CSS(`#conn.on`)), chromedp.Navigate(page+"tm-run1"),
		chromedp.WaitVisible(chromedp.CSS(`ol.steps`)), chromedp.WaitVisible(chromedp.CSS(`#conn.on`)))
	if got := text("ol.steps"); !strings.Contains(got, "Read parser.go") {
		t.Errorf("the running task's steps: %q", got)
	}
	store.AppendStep(s, store.StepLine{At: time.Now(), TaskID: "tm-run1", Step: "Edit parser.go"})
	run("the next step comes without a reload", until(
		`document.querySelector("ol.steps").innerText.includes("Edit parser.go")`))
	run("stop it", chromedp.SendKeys(chromedp.CSS(`form[action$="/stop"] input[name=reason]`), "the spec changes"),
		click(`form[action$="/stop"] button`),
		until(`document.body.innerText.includes("Stopped")`))
	if tk := stateOf("tm-run1"); tk.State != task.Deferred {
		t.Errorf("after Stop: %s", tk.State)
	}

	// (b) A failed task: the agent's summary and issues, and Reopen.
	run("open the failed task", chromedp.Navigate(page+"tm-fail1"), chromedp.WaitVisible(chromedp.CSS(`section.agent`)))
	if got := text("section.agent"); !strings.Contains(got, "the tests do not pass") || !strings.Contains(got, "go vet fails on parser.go") {
		t.Errorf("the failed task's report: %q", got)
	}
	run("reopen it", click(`form[action$="/reopen"] button`),
		chromedp.WaitNotPresent(chromedp.CSS(`form[action$="/reopen"]`)))
	if tk := stateOf("tm-fail1"); tk.State != task.Open {
		t.Errorf("after Reopen: %s", tk.State)
	}

	// (c) The inbox by keyboard: the P0 card first, j and k move, a
	// approves the selected card, Enter opens it.
	selected := func() string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("li.card.selected") || {dataset: {}}).dataset.task || ""`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	run("open the inbox", chromedp.Navigate(conf.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`li.card[data-task="tm-ask3"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#conn.on`)))
	for _, k := range []struct{ key, want string }{{"j", "tm-ask2"}, {"j", "tm-ask3"}, {"k", "tm-ask2"}, {"k", "tm-ask2"}} {
		run("press "+k.key, chromedp.KeyEvent(k.key))
		if got := selected(); got != k.want {
			t.Fatalf("after %s the selected card is %q, want %s", k.key, got, k.want)
		}
	}
	run("a approves tm-ask2", chromedp.KeyEvent("a"), until(`location.pathname.endsWith("/t/tm-ask2")`))
	if tk := stateOf("tm-ask2"); tk.State != task.Open || tk.Questions[0].Status != task.QuestionAnswered || tk.Questions[0].Answer[0] != "yes" {
		t.Errorf("after a: %s %+v", tk.State, tk.Questions[0])
	}
	run("back to the inbox", chromedp.Navigate(conf.URL+"/"), chromedp.WaitNotPresent(chromedp.CSS(`li.card[data-task="tm-ask2"]`)),
		chromedp.WaitVisible(chromedp.CSS(`li.card[data-task="tm-ask3"]`)))
	run("j, then Enter opens tm-ask3", chromedp.KeyEvent("j"), chromedp.KeyEvent("\r"),
		until(`location.pathname.endsWith("/t/tm-ask3")`), chromedp.WaitVisible(chromedp.CSS(`form.answer textarea`)))
}

// until waits for a JavaScript expression to be true, for as long as the
// step's context allows; a page being replaced (a form posted) is asked
// again once the next one is there.
func until(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for {
			ok, err := chromedp.Evaluate[bool](expr)(ctx, tg)
			if err == nil && ok {
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%s: never true (%v)", expr, err)
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
}
