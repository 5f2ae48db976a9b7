package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/outage"
)

// The inbox says a usage limit holds the queue back, and its resume
// button (a POST that needs the token and the page's form) ends it.
func TestInboxShowsAndResumesTheUsageLimitPause(t *testing.T) {
	s := newSite(t)
	r, err := git.Open(s.root)
	if err != nil {
		t.Fatal(err)
	}
	ref := outage.AccountRef(s.st.Config.Agent.Name(), nil)
	reset := now.Add(3 * time.Hour)
	if err := outage.Keep(r, ref, outage.Hold{ResetsAt: reset, Window: "five_hour", Status: agent.LimitRejected}); err != nil {
		t.Fatal(err)
	}
	_, body := s.do("GET", "/", nil, nil)
	if want := "paused by the five-hour usage limit until " + reset.Local().Format("15:04"); !strings.Contains(body, want) {
		t.Fatalf("the inbox does not say %q:\n%s", want, body)
	}
	path := "/r/" + config.RepoKey(s.root) + "/resume"
	for _, bad := range []struct {
		form url.Values
		with func(*http.Request)
		code int
	}{{url.Values{"csrf": {csrfValue(token)}}, noCookie, http.StatusUnauthorized}, {url.Values{}, nil, http.StatusForbidden}} {
		if resp, _ := s.do("POST", path, bad.form, bad.with); resp.StatusCode != bad.code {
			t.Errorf("resume with %v: %d, want %d", bad.form, resp.StatusCode, bad.code)
		}
	}
	if got, _ := r.Ref(ref); got == "" {
		t.Fatal("a refused resume ended the pause")
	}
	if resp, _ := s.do("POST", path, url.Values{"csrf": {csrfValue(token)}}, nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("resume: %d", resp.StatusCode)
	}
	if got, _ := r.Ref(ref); got != "" {
		t.Fatal("the pause is still there after resume")
	}
}
