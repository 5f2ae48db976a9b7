package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// GitHub's webhooks reach Options.GitHub without bh's token (they carry
// their own signature); without it, the path is behind the token as any.
func TestGitHubWebhookRoute(t *testing.T) {
	heard := 0
	hook := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { heard++; w.WriteHeader(http.StatusNoContent) })
	for _, tt := range []struct {
		hook http.Handler
		want int
	}{{hook, http.StatusNoContent}, {nil, http.StatusUnauthorized}} {
		srv, err := New(Options{Token: token, Now: func() time.Time { return now }, GitHub: tt.hook,
			Repos: func() ([]string, error) { return nil, nil }})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv.Handler())
		resp, err := http.Post(ts.URL+"/github/webhook", "application/json", strings.NewReader("{}"))
		ts.Close()
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("webhook with handler %v: %d, want %d", tt.hook != nil, resp.StatusCode, tt.want)
		}
	}
	if heard != 1 {
		t.Errorf("the handler heard %d requests, want 1", heard)
	}
}
