package web

import (
	"encoding/base64"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/notify"
)

// linkSite is a site whose web config (the link key and the used links)
// lives in memory, with a clock the test moves.
type linkSite struct {
	*site
	mu    sync.Mutex
	conf  config.WebConfig
	clock time.Time
}

func newLinkSite(t *testing.T) *linkSite {
	t.Helper()
	s := &linkSite{site: newSite(t), clock: now}
	srv, err := New(Options{Token: token, By: "web:alice", Repos: s.srv.o.Repos, AfterFunc: s.afterFunc,
		Now: func() time.Time { s.mu.Lock(); defer s.mu.Unlock(); return s.clock },
		WebConfig: func() (config.WebConfig, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			c := s.conf
			c.Used = map[string]int64{}
			for k, v := range s.conf.Used {
				c.Used[k] = v
			}
			return c, nil
		},
		SaveWebConfig: func(c config.WebConfig) error { s.mu.Lock(); defer s.mu.Unlock(); s.conf = c; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	s.srv, s.ts = srv, httptest.NewServer(srv.Handler())
	t.Cleanup(s.ts.Close)
	s.conf = config.WebConfig{URL: s.ts.URL, Token: token, LinkKey: config.NewLinkKey()}
	return s
}

// notified is the answer link of the notification bh sends for tm-ask1.
func (s *linkSite) notified() string {
	s.t.Helper()
	s.mu.Lock()
	conf := s.conf
	s.mu.Unlock()
	e := notify.FromTask(task.EventInputRequested, s.task(), s.root, conf, now)
	if !strings.HasPrefix(e.Link, s.ts.URL+"/l/") {
		s.t.Fatalf("the notification's link %q is not under bh serve's address %s", e.Link, s.ts.URL)
	}
	return strings.TrimPrefix(e.Link, s.ts.URL)
}

// phone sends what a phone's browser would: no cookie, this site's origin.
func phone(r *http.Request) { r.Header.Del("Cookie") }

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// openLink opens path on a phone and returns the page's form CSRF value.
func (s *linkSite) openLink(path string) string {
	s.t.Helper()
	resp, body := s.do("GET", path, nil, phone)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Which database?") ||
		!strings.Contains(body, `action="`+path+`/answer"`) {
		s.t.Fatalf("the link's page: %d\n%s", resp.StatusCode, body)
	}
	m := csrfField.FindStringSubmatch(body)
	if m == nil || m[1] == csrfValue(token) {
		s.t.Fatalf("the page's CSRF value %v is not the link's own", m)
	}
	return m[1]
}

func TestLinkAnswersOnce(t *testing.T) {
	s := newLinkSite(t)
	link := s.notified()
	csrf := s.openLink(link)
	resp, body := s.do("POST", link+"/answer", url.Values{"csrf": {csrf}, "q": {"q2"}, "answer": {"yes"}, "reviewed": {"1"}}, phone)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != link+"?answered=1" {
		t.Fatalf("answer: %d %s\n%s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	if resp, body := s.do("GET", link+"?answered=1", nil, phone); resp.StatusCode != http.StatusOK || !strings.Contains(body, "Your answer is recorded") {
		t.Errorf("after the answer: %d\n%s", resp.StatusCode, body)
	}
	tk := s.task()
	if q := tk.Questions[1]; q.Status != task.QuestionAnswered || strings.Join(q.Answer, ",") != "yes" {
		t.Errorf("q2 %+v", q)
	}
	if e, ok := tk.LastAnswer("q2"); !ok || e.By != config.ViaLink {
		t.Errorf("recorded by %+v, want %q", e, config.ViaLink)
	}
	// The same link again, by its form, its page or a button: refused.
	before := s.file()
	for _, try := range []struct{ method, path, body string }{
		{"POST", link + "/answer", url.Values{"csrf": {csrf}, "q": {"q1"}, "answer": {"Postgres"}}.Encode()},
		{"POST", link + "/act", "q=q1&answer=Postgres"},
		{"GET", link, ""},
	} {
		resp, body := s.raw(try.method, try.path, try.body)
		if resp.StatusCode != http.StatusGone || !strings.Contains(body, "answered already") {
			t.Errorf("%s %s again: %d\n%s", try.method, try.path, resp.StatusCode, body)
		}
	}
	if s.file() != before {
		t.Error("a used link changed the task")
	}
}

// raw sends body as a phone or ntfy would: no cookie, no Origin.
func (s *linkSite) raw(method, path, body string) (*http.Response, string) {
	return s.do(method, path, nil, func(r *http.Request) {
		r.Header.Del("Cookie")
		r.Header.Del("Origin")
		if body != "" {
			r.Body, r.ContentLength = io.NopCloser(strings.NewReader(body)), int64(len(body))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	})
}

func TestLinkRefused(t *testing.T) {
	s := newLinkSite(t)
	link := s.notified()
	csrf := s.openLink(link)
	before := s.file()
	// Another task, the inbox and the event stream stay behind the token.
	other := strings.Replace(before, "tm-ask1", "tm-other", 1)
	if err := os.WriteFile(s.st.Path("tm-other"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/r/" + config.RepoKey(s.root) + "/t/tm-other", "/r/" + config.RepoKey(s.root) + "/t/tm-ask1", "/", "/events"} {
		if resp, _ := s.do("GET", p, nil, phone); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s with a link: %d", p, resp.StatusCode)
		}
	}
	// A link rewritten to name the other task fails its signature.
	payload, mac, _ := strings.Cut(strings.TrimPrefix(link, "/l/"), ".")
	b, _ := base64.RawURLEncoding.DecodeString(payload)
	var l map[string]any
	json.Unmarshal(b, &l)
	l["t"] = "tm-other"
	b, _ = json.Marshal(l)
	forged := "/l/" + base64.RawURLEncoding.EncodeToString(b) + "." + mac
	for name, tc := range map[string]struct {
		path string
		form url.Values
		with func(*http.Request)
		code int
		want string
	}{
		"forged for another task":      {forged, url.Values{"csrf": {csrf}, "q": {"q1"}, "answer": {"SQLite"}}, phone, 403, "not valid"},
		"a question it does not cover": {link, url.Values{"csrf": {csrf}, "q": {"q9"}, "answer": {"yes"}}, phone, 403, "answers only the questions it was sent for"},
		"no CSRF value":                {link, url.Values{"q": {"q2"}, "answer": {"yes"}}, phone, 403, "did not come from this link's page"},
		"the token's CSRF":             {link, url.Values{"csrf": {csrfValue(token)}, "q": {"q2"}, "answer": {"yes"}}, phone, 403, "did not come"},
		"from another site":            {link, url.Values{"csrf": {csrf}, "q": {"q2"}, "answer": {"yes"}}, func(r *http.Request) { phone(r); r.Header.Set("Origin", "https://evil.example") }, 403, "did not come"},
		"not an option":                {link, url.Values{"csrf": {csrf}, "q": {"q1"}, "answer": {"MySQL"}}, phone, 400, "is not an option"},
	} {
		resp, body := s.do("POST", tc.path+"/answer", tc.form, tc.with)
		if resp.StatusCode != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d, want %d and %q\n%s", name, resp.StatusCode, tc.code, tc.want, body)
		}
	}
	if s.file() != before {
		t.Fatal("a refused answer changed the task")
	}
	// Expired: the question set no expiry, so a day.
	s.mu.Lock()
	s.clock = now.Add(config.LinkTTL + time.Minute)
	s.mu.Unlock()
	for _, m := range []string{"GET", "POST"} {
		path := link
		if m == "POST" {
			path += "/act"
		}
		if resp, body := s.raw(m, path, "q=q2&answer=yes"); resp.StatusCode != http.StatusGone || !strings.Contains(body, "expired") {
			t.Errorf("%s expired: %d\n%s", m, resp.StatusCode, body)
		}
	}
	// Revoked: a new key refuses every link made before.
	s.mu.Lock()
	s.clock, s.conf.LinkKey = now, config.NewLinkKey()
	s.mu.Unlock()
	if resp, body := s.raw("GET", link, ""); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "revoked") {
		t.Errorf("revoked: %d\n%s", resp.StatusCode, body)
	}
	if s.file() != before {
		t.Fatal("a refused link changed the task")
	}
}

// A notification's button answers with one option and nothing else, and
// never a gate; the reply is plain text, and a wrong answer uses nothing up.
func TestLinkAct(t *testing.T) {
	s := newLinkSite(t)
	link := s.notified()
	for _, tc := range []struct {
		body string
		code int
		want string
	}{
		{"q=q1&answer=MySQL", 400, `"MySQL" is not an option (Postgres, SQLite)`},
		{"q=q3&answer=fine", 400, "one tap answers an approval or a single choice only"},
		{"q=q2&answer=yes&comment=hi", 400, "want the body q=<question>&answer=<option>"},
		{"q=q2&answer=yes", 400, "a gate is answered on its page, where its change is shown"},
		{"q=q1&answer=SQLite", 200, "bh: answered SQLite (tm-ask1)"},
		{"q=q1&answer=Postgres", 410, "answered already"},
	} {
		resp, body := s.raw("POST", link+"/act", tc.body)
		if resp.StatusCode != tc.code || !strings.Contains(body, tc.want) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
			t.Errorf("%s: %d %q, want %d %q", tc.body, resp.StatusCode, body, tc.code, tc.want)
		}
	}
	if e, ok := s.task().LastAnswer("q1"); !ok || e.Text != "SQLite" || e.By != config.ViaLink {
		t.Errorf("q1's answer %+v", e)
	}
	if _, ok := s.task().LastAnswer("q2"); ok {
		t.Error("one tap approved a gate")
	}
}

// A gate reached from a notification is reviewed: the link's page shows
// its change above the decision.
func TestLinkPageShowsTheGatesChange(t *testing.T) {
	s := newLinkSite(t)
	s.park()
	_, body := s.do("GET", s.notified(), nil, phone)
	diff, decide := strings.Index(body, `<span class="add" data-line="1" tabindex="-1">`), strings.Index(body, `name="answer.q2" value="yes"`)
	if diff < 0 || decide < 0 || diff > decide {
		t.Errorf("the gate's change is not above its decision (%d, %d):\n%s", diff, decide, body)
	}
}

// A link's page shows its own task alone: with another task waiting, the
// token's page points to it, the link's page names it nowhere (no title,
// question or id), and offers no stop or reopen.
func TestLinkPageShowsItsTaskAlone(t *testing.T) {
	s := newLinkSite(t)
	other := strings.NewReplacer("tm-ask1", "tm-sec2", "Set up the database", "Drop the old tables", "P1", "P0",
		"Which database?", "Deploy to production and drop the old database?").Replace(asking)
	if err := os.WriteFile(s.st.Path("tm-sec2"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, body := s.do("GET", s.base, nil, nil); !strings.Contains(body, "Next waiting task: Drop the old tables") {
		t.Fatalf("the token's page does not point to the other task:\n%s", body)
	}
	link := s.notified()
	s.openLink(link)
	_, body := s.do("GET", link, nil, phone)
	for _, leak := range []string{"tm-sec2", "Drop the old tables", "Deploy to production", "/stop", "/reopen"} {
		if strings.Contains(body, leak) {
			t.Errorf("the link's page shows %q:\n%s", leak, body)
		}
	}
}

// A link's page, opened without the token, points only where it can go:
// every address it names (links, scripts, styles, a folded file's diff)
// answers it, none with 401; the folded file comes through the link.
func TestLinkPageLinksOpen(t *testing.T) {
	s := newLinkSite(t)
	s.parkFiles(map[string]string{"schema.sql": "create table b;\n", "gen.txt": strings.Repeat("line\n", 500)})
	link := s.notified()
	_, body := s.do("GET", link, nil, phone)
	refs := regexp.MustCompile(`(?:href|src|data-src|action)="(/[^"]*)"`).FindAllStringSubmatch(body, -1)
	if len(refs) < 4 {
		t.Fatalf("the page names too few addresses (%d):\n%s", len(refs), body)
	}
	for _, m := range refs {
		ref := html.UnescapeString(m[1])
		method := "GET"
		if strings.HasSuffix(ref, "/answer") || strings.HasSuffix(ref, "/undo") {
			method = "POST" // a form's: refused for its missing fields, not for the token
		}
		if resp, got := s.do(method, ref, nil, phone); resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusNotFound {
			t.Errorf("%s %s: %d %.200s", method, ref, resp.StatusCode, got)
		}
	}
	if !strings.Contains(body, `data-src="`+link+`/file?path=gen.txt"`) {
		t.Errorf("the big file is not fetched through the link:\n%s", body)
	}
	if _, got := s.do("GET", link+"/file?path=gen.txt", nil, phone); !strings.Contains(got, `data-line="500"`) {
		t.Errorf("the big file through the link: %.300s", got)
	}
}
