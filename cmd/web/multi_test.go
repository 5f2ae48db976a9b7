package web

import (
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// Every question of the task answered in one POST: all are recorded, and
// the page says which, in words.
func TestAnswerAllAtOnce(t *testing.T) {
	s := newSite(t)
	resp, body := s.answer(url.Values{"q": {"q1", "q2", "q3"}, "answer.q1": {"SQLite"}, "comment.q1": {"one file"},
		"answer.q2": {"yes"}, "text.q3": {"Keep it small."}, "reviewed": {"1"}}, nil)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	s.elapse() // the gate's approval lands: held for its undo window
	tk := s.task()
	if tk.State != task.Open {
		t.Errorf("state %s", tk.State)
	}
	for i, want := range []string{"SQLite: one file", "yes", "Keep it small."} {
		if q := tk.Questions[i]; q.Status != task.QuestionAnswered || q.AnswerText() != want {
			t.Errorf("%s: %s %q, want %q", q.ID, q.Status, q.AnswerText(), want)
		}
	}
	_, page := s.do("GET", resp.Header.Get("Location"), nil, nil)
	for _, want := range []string{`<p class="answered">Answered <b>SQLite: one file</b> by you (web)`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "q1 is saved") {
		t.Error("a message names a question by its id")
	}
}

// One answer that does not fit refuses them all: nothing is recorded, and
// every answer typed is in the form again.
func TestAnswerAllOrNothing(t *testing.T) {
	s := newSite(t)
	before := s.file()
	resp, body := s.answer(url.Values{"q": {"q1", "q2", "q3"}, "answer.q1": {"SQLite"}, "answer.q2": {"maybe"},
		"text.q3": {"typed <before>"}}, nil)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "is not an approval") {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if s.file() != before {
		t.Fatal("a refused form changed the task file")
	}
	for _, want := range []string{`name="answer.q1" value="SQLite" checked`, `name="text.q3" rows="4">typed &lt;before&gt;</textarea>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the refused page lacks %q", want)
		}
	}
}

// Questions left alone in a form of several wait on; the others are
// answered, and stay on the page as answered, beside the one still open.
func TestAnswerSome(t *testing.T) {
	s := newSite(t)
	if resp, body := s.answer(url.Values{"q": {"q1", "q2", "q3"}, "answer.q1": {"Postgres"}, "text.q3": {""}}, nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	tk := s.task()
	if tk.State != task.AwaitingInput || tk.Questions[0].Status != task.QuestionAnswered || tk.Questions[1].Status != task.QuestionPending {
		t.Fatalf("%s %s %s", tk.State, tk.Questions[0].Status, tk.Questions[1].Status)
	}
	_, page := s.do("GET", s.base, nil, nil)
	for _, want := range []string{`<p class="progress" role="status">1 of 3 answered</p>`, `Answered <b>Postgres</b> by you (web)`,
		`<button class="send">Send 2 answers</button>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// Defaults are filled in; the page's text has no heading around the
// question's markdown, and a script in it is inert; the inbox's card
// renders the markdown too.
func TestTaskPageDefaultsAndMarkdown(t *testing.T) {
	s := newSite(t)
	f := strings.Replace(s.file(), "    question: Which database?\n", "    question: Which database?\n    default: SQLite\n    header: Database\n", 1)
	f = strings.Replace(f, "    question: Anything else?\n", "    question: \"Anything **else**?\\n\\n```go\\nx := 1\\n```\\n\\n<script>alert(1)</script>\"\n    default: nothing\n", 1)
	if err := os.WriteFile(s.st.Path("tm-ask1"), []byte(f), 0o644); err != nil {
		t.Fatal(err)
	}
	_, page := s.do("GET", s.base, nil, nil)
	for _, want := range []string{`name="answer.q1" value="SQLite" checked`, `name="text.q3" rows="4">nothing</textarea>`,
		`<span class="header">Database</span></legend>`, "<p>Anything <strong>else</strong>?</p>", `<pre><code class="language-go">x := 1`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>alert") || regexp.MustCompile(`<h\d[^>]*>[^<]*Which database`).MatchString(page) {
		t.Error("a script got through, or the question is in a heading")
	}
	if _, inbox := s.do("GET", "/", nil, nil); !strings.Contains(inbox, `<div class="md"><p>Anything <strong>else</strong>?</p>`) ||
		strings.Contains(inbox, "**else**") || strings.Contains(inbox, "<script>alert") {
		t.Errorf("the inbox's card shows the markdown raw:\n%s", inbox)
	}
}

// The inbox: one card per task, the most urgent first, then the oldest;
// failed and blocked tasks under "needs attention", pull requests under
// "in review"; one-tap answers only
// where one tap is enough.
func TestInboxCards(t *testing.T) {
	s := newSite(t)
	one := func(id, prio, state, asked, qs string) {
		f := "id: " + id + "\ntitle: task " + id + "\ntype: code\npriority: " + prio + "\nstate: " + state + "\n" + qs +
			"createdAt: 2026-01-01T09:00:00Z\nupdatedAt: 2026-01-01T09:00:00Z\nsummary: tests fail\n"
		if asked != "" {
			f = strings.ReplaceAll(f, "ASKED", asked)
		}
		if err := os.WriteFile(s.st.Path(id), []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	approve := "questions:\n  - id: q1\n    question: Ship it?\n    type: approval\n    status: pending\n    askedAt: ASKED\n    expiresAt: 2026-01-02T11:00:00Z\n"
	one("tm-urgent", "P0", "awaiting_input", "2026-01-01T11:55:00Z", approve)
	one("tm-older", "P2", "awaiting_input", "2026-01-01T08:00:00Z", approve)
	one("tm-newer", "P2", "awaiting_input", "2026-01-01T11:00:00Z", approve)
	one("tm-broke", "P1", "failed", "", "")
	one("tm-pr", "P2", "in_review", "", "history:\n  - at: 2026-01-01T10:00:00Z\n    kind: pr\n    text: https://github.com/o/r/pull/7\n")
	// Its page says how long it has waited on review (the site's clock is
	// 2026-01-01 12:00).
	if _, pr := s.do("GET", "/r/"+config.RepoKey(s.root)+"/t/tm-pr", nil, nil); !strings.Contains(pr,
		`<p class="facts measured">review: 0 feedback round(s), 2h waiting on review</p>`) {
		t.Errorf("the pull request's page does not measure its review:\n%s", pr)
	}
	_, page := s.do("GET", "/", nil, nil)
	order := regexp.MustCompile(`<li class="item card" data-task="([^"]+)"`).FindAllStringSubmatch(page, -1)
	var got []string
	for _, m := range order {
		got = append(got, m[1])
	}
	if strings.Join(got, " ") != "tm-urgent tm-ask1 tm-older tm-newer" {
		t.Errorf("cards %v, want one per task, by priority then age", got)
	}
	for _, want := range []string{"3 questions", "asked <time datetime=\"2026-01-01T11:55:00Z\">5m ago</time> · <span class=\"expiry\">expires in 23h</span>",
		`<h2>Needs attention <span class="count">1</span></h2>`, `data-task="tm-broke"`, `<p class="gist">tests fail</p>`,
		`<h2>In review <span class="count">1</span></h2>`, `<a href="https://github.com/o/r/pull/7">pull request</a>`,
		`<button name="answer.q1" value="yes" class="yes" data-key="a">Approve</button>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the inbox lacks %q", want)
		}
	}
	if strings.Contains(page[:strings.Index(page, `data-task="tm-older"`)], `action="/r/`+config.RepoKey(s.root)+`/t/tm-ask1/answer"`) {
		t.Error("a task of three questions has one-tap answers")
	}
	// A tap answers through the same path, and the task leaves the inbox.
	resp, _ := s.do("POST", "/r/"+config.RepoKey(s.root)+"/t/tm-urgent/answer",
		url.Values{"csrf": {csrfValue(token)}, "q": {"q1"}, "answer.q1": {"yes"}}, nil)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("quick answer: %d", resp.StatusCode)
	}
	if _, page := s.do("GET", "/", nil, nil); strings.Contains(page, `data-task="tm-urgent"`) {
		t.Error("the answered task is still in the inbox")
	}
}

// Stop and Reopen from the page change the task as bh stop and bh reopen
// do, and need the form's CSRF value and a reason.
func TestStopAndReopen(t *testing.T) {
	s := newSite(t)
	stop := func(f url.Values) (*http.Response, string) { return s.do("POST", s.base+"/stop", f, nil) }
	if resp, _ := stop(url.Values{"reason": {"later"}}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a stop without CSRF: %d", resp.StatusCode)
	}
	if resp, body := stop(url.Values{"csrf": {csrfValue(token)}, "reason": {" "}}); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "needs a reason") {
		t.Errorf("a stop without reason: %d", resp.StatusCode)
	}
	if resp, body := stop(url.Values{"csrf": {csrfValue(token)}, "reason": {"the spec changes"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("stop: %d %s", resp.StatusCode, body)
	}
	if tk := s.task(); tk.State != task.Deferred || tk.Questions[0].Status != task.QuestionCancelled {
		t.Fatalf("after stop: %s %s", tk.State, tk.Questions[0].Status)
	}
	_, page := s.do("GET", s.base+"?done=stopped", nil, nil)
	if !strings.Contains(page, "Stopped: the task is deferred") || !strings.Contains(page, "/reopen") {
		t.Errorf("the stopped page:\n%s", page)
	}
	if resp, _ := s.do("POST", s.base+"/reopen", url.Values{"csrf": {csrfValue(token)}}, nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("reopen: %d", resp.StatusCode)
	}
	if tk := s.task(); tk.State != task.Open || tk.History[len(tk.History)-1].By != "web:alice" {
		t.Errorf("after reopen: %s", tk.State)
	}
}
