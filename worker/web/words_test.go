package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A used link's page says what it answered, when and through which
// channel; the inbox, opened without the token from a browser, says what
// it needs in a page rather than a bare 401.
func TestUsedLinkAndInboxSayWhy(t *testing.T) {
	s := newLinkSite(t)
	link := s.notified()
	csrf := s.openLink(link)
	if resp, body := s.do("POST", link+"/answer", url.Values{"csrf": {csrf}, "q": {"q2"}, "answer": {"yes"}}, phone); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("answer: %d\n%s", resp.StatusCode, body)
	}
	resp, body := s.raw("GET", link, "")
	if want := "“Approve and commit tm-ask1?” was answered yes, at 2026-01-01 12:00 UTC, through link"; resp.StatusCode != http.StatusGone || !strings.Contains(body, want) {
		t.Errorf("the used link: %d, want %q in\n%s", resp.StatusCode, want, body)
	}
	resp, body = s.do("GET", "/", nil, func(r *http.Request) { phone(r); r.Header.Set("Accept", "text/html") })
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "<h1>The inbox needs bh serve&#39;s token</h1>") {
		t.Errorf("the inbox without the token: %d\n%s", resp.StatusCode, body)
	}
}
