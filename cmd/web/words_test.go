package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/act"

	"github.com/bh-tracker/bh/task"
)

// A used link's page says what it answered, when and through which
// channel; the inbox, opened without the token from a browser, says what
// it needs in a page rather than a bare 401.
func TestUsedLinkAndInboxSayWhy(t *testing.T) {
	s := newLinkSite(t)
	link := s.notified()
	csrf := s.openLink(link)
	if resp, body := s.do("POST", link+"/answer", url.Values{"csrf": {csrf}, "q": {"q2"}, "answer": {"yes"}, "reviewed": {"1"}}, phone); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("answer: %d\n%s", resp.StatusCode, body)
	}
	resp, body := s.raw("GET", link, "")
	if want := "“Approve this change and land it on main?” was answered yes by you (link) at 2026-01-01 12:00 UTC"; resp.StatusCode != http.StatusGone || !strings.Contains(body, want) {
		t.Errorf("the used link: %d, want %q in\n%s", resp.StatusCode, want, body)
	}
	resp, body = s.do("GET", "/", nil, func(r *http.Request) { phone(r); r.Header.Set("Accept", "text/html") })
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "<h1>The inbox needs bh serve&#39;s token</h1>") {
		t.Errorf("the inbox without the token: %d\n%s", resp.StatusCode, body)
	}
}

// A gate approved through a link is held as on the token's page: Undo
// leaves the question waiting and the link unused; the window's end
// records it and uses the link.
func TestLinkApprovalHeld(t *testing.T) {
	s := newLinkSite(t)
	for _, f := range []url.Values{{"q": {"q1"}, "answer": {"SQLite"}}, {"q": {"q3"}, "text": {"no"}}} {
		if resp, body := s.answer(f, nil); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("%v: %d %s", f, resp.StatusCode, body)
		}
	}
	link := s.notified()
	waiting := s.file()
	approve := func() string {
		t.Helper()
		csrf := s.openLink(link)
		resp, _ := s.do("POST", link+"/answer", url.Values{"csrf": {csrf}, "q": {"q2"}, "answer": {"yes"}, "reviewed": {"1"}}, phone)
		_, page := s.do("GET", resp.Header.Get("Location"), nil, phone)
		if !strings.Contains(page, `action="`+link+`/undo"`) || s.file() != waiting {
			t.Fatalf("held through the link:\n%s", page)
		}
		return csrfField.FindStringSubmatch(page)[1]
	}
	resp, _ := s.do("POST", link+"/undo", url.Values{"csrf": {approve()}}, phone)
	if _, page := s.do("GET", resp.Header.Get("Location"), nil, phone); !strings.Contains(page, "Undone") || s.file() != waiting {
		t.Fatalf("undone through the link:\n%s", page)
	}
	approve()
	s.elapse()
	if e, ok := s.task().LastAnswer("q2"); !ok || e.Text != "yes" {
		t.Fatalf("after the window: %+v", e)
	}
	if resp, _ := s.raw("GET", link, ""); resp.StatusCode != http.StatusGone {
		t.Errorf("the link after its answer: %d", resp.StatusCode)
	}
}

// Links pointing at loopback (no --public-url): the inbox says a phone
// cannot open them.
func TestInboxWarnsOfLoopbackLinks(t *testing.T) {
	s := newSite(t)
	s.srv.o.LocalLinks = "http://127.0.0.1:7420"
	if _, body := s.do("GET", "/", nil, nil); !strings.Contains(body, "Links in notifications point at http://127.0.0.1:7420, which only this machine can open") {
		t.Errorf("no warning on the inbox:\n%s", body)
	}
}

// Whoever answered before is named by their one name (task.Who) wherever
// the web says so: a link's page, a notification's button, the history;
// never as stored (web:bob) and never by a question's id.
func TestWebNamesPeopleAndQuestionsPlainly(t *testing.T) {
	s := newLinkSite(t)
	link := s.notified()
	csrf := s.openLink(link)
	if _, err := act.Answer(s.st, "tm-ask1", []task.Answer{{QuestionID: "q1", Values: []string{"SQLite"}}}, "web:bob", nil); err != nil {
		t.Fatal(err)
	}
	if resp, body := s.answer(url.Values{"q": {"q3"}, "text": {"Keep it small."}}, nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("answer q3: %d\n%s", resp.StatusCode, body)
	}
	_, page := s.do("GET", s.base, nil, nil)
	_, form := s.do("POST", link+"/answer", url.Values{"csrf": {csrf}, "q": {"q3"}, "text": {"mine"}}, phone)
	_, button := s.raw("POST", link+"/act", "q=q1&answer=Postgres")
	for _, try := range []struct{ what, body, want string }{
		{"the link's form", form, "Question 3: already answered by you (web) at 2026-01-01 12:00:00 UTC"},
		{"a notification's button", button, "bh: tm-ask1: already answered by bob (web) at "},
		{"the task's history", page, "<td>bob (web)</td><td>question 1</td>"},
	} {
		body := try.body
		text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(body, " ")
		if !strings.Contains(body, try.want) || strings.Contains(body, "web:") || regexp.MustCompile(`\bq[0-9]\b`).MatchString(text) {
			t.Errorf("%s: want %q, no web: and no question id, in\n%s", try.what, try.want, body)
		}
	}
}
