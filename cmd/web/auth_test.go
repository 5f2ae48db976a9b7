package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Every address needs the token, except the static files (no secrets: a
// link's page needs its style without one) and answer links (link_test);
// ?token= trades it for a strict cookie and leaves the URL without it.
func TestAuth(t *testing.T) {
	s := newSite(t)
	if resp, _ := s.do("GET", "/static/app.js", nil, noCookie); resp.StatusCode != http.StatusOK {
		t.Errorf("a static file without token: %d", resp.StatusCode)
	}
	for _, path := range []string{"/", s.base, "/events", "/nowhere", "/l/", "/l/x.y/answer"} {
		if resp, body := s.do("GET", path, nil, noCookie); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "needs its token") {
			t.Errorf("GET %s without token: %d %q", path, resp.StatusCode, body)
		}
	}
	wrong := func(r *http.Request) { r.Header.Set("Cookie", cookieName+"=secret-token-for-test") }
	if resp, _ := s.do("GET", "/", nil, wrong); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong cookie: %d", resp.StatusCode)
	}
	if resp, _ := s.do("GET", "/?token=nope", nil, noCookie); resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("Set-Cookie") != "" {
		t.Errorf("a wrong ?token=: %d, cookie %q", resp.StatusCode, resp.Header.Get("Set-Cookie"))
	}

	resp, _ := s.do("GET", s.base+"?token="+token+"&x=1", nil, noCookie)
	c := resp.Cookies()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != s.base+"?x=1" || len(c) != 1 ||
		c[0].Value != token || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode || c[0].Path != "/" {
		t.Fatalf("?token=: %d to %q, cookies %+v", resp.StatusCode, resp.Header.Get("Location"), c)
	}
	withCookie := func(r *http.Request) { r.Header.Set("Cookie", c[0].String()) }
	if resp, body := s.do("GET", s.base, nil, withCookie); resp.StatusCode != http.StatusOK || !strings.Contains(body, "Which database?") {
		t.Errorf("with the cookie: %d", resp.StatusCode)
	}
	bearer := func(r *http.Request) { noCookie(r); r.Header.Set("Authorization", "Bearer "+token) }
	if resp, body := s.do("GET", "/", nil, bearer); resp.StatusCode != http.StatusOK || !strings.Contains(body, "tm-ask1") {
		t.Errorf("with the bearer token: %d", resp.StatusCode)
	}
	badBearer := func(r *http.Request) { noCookie(r); r.Header.Set("Authorization", "Bearer "+token+"x") }
	if resp, _ := s.do("GET", "/", nil, badBearer); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong bearer token: %d", resp.StatusCode)
	}
}

// An answer from a browser must come from this server's own page: its
// origin (or referrer) and the form's CSRF value. Nothing is written
// otherwise.
func TestCSRF(t *testing.T) {
	s := newSite(t)
	before := s.file()
	pick := func() url.Values { return url.Values{"q": {"q1"}, "answer": {"SQLite"}} }
	for _, tc := range []struct {
		name string
		form url.Values
		with func(r *http.Request)
	}{
		{"no origin nor referrer", pick(), func(r *http.Request) { r.Header.Del("Origin") }},
		{"another site's origin", pick(), func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") }},
		{"an opaque origin", pick(), func(r *http.Request) { r.Header.Set("Origin", "null") }},
		{"another site's referrer", pick(), func(r *http.Request) {
			r.Header.Del("Origin")
			r.Header.Set("Referer", "http://evil.example/page")
		}},
		{"no csrf value", url.Values{"q": {"q1"}, "answer": {"SQLite"}, "csrf": {"x"}}, nil},
		{"another token's csrf value", url.Values{"q": {"q1"}, "answer": {"SQLite"}, "csrf": {csrfValue("other")}}, nil},
		{"the token in the URL", pick(), func(r *http.Request) { noCookie(r); r.URL.RawQuery = "token=" + token }},
	} {
		resp, body := s.answer(tc.form, tc.with)
		if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: %d %s", tc.name, resp.StatusCode, body)
		}
		if s.file() != before {
			t.Fatalf("%s: the task file changed", tc.name)
		}
	}
	// the page's own form, posted from a referrer of this server
	resp, _ := s.answer(pick(), func(r *http.Request) { r.Header.Del("Origin"); r.Header.Set("Referer", s.ts.URL+s.base) })
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != s.base+"?answered=q1" {
		t.Fatalf("the page's form: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	// a program with the bearer token is no browser: no CSRF value needed
	resp, body := s.do("POST", s.base+"/answer", url.Values{"q": {"q3"}, "text": {"no"}}, func(r *http.Request) {
		noCookie(r)
		r.Header.Del("Origin")
		r.Header.Set("Authorization", "Bearer "+token)
	})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("bearer: %d %s", resp.StatusCode, body)
	}
	if got := s.task().Questions[2].Answer; len(got) != 1 || got[0] != "no" {
		t.Errorf("q3's answer: %v", got)
	}
}
