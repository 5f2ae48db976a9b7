package web

import (
	"net/http"
	"testing"

	"github.com/bh-tracker/bh/task/config"
)

// TestBadTaskAddressIsTheClientsError: an id that is malformed, unknown
// or ambiguous in the address is a 4xx with the reason, never a 500.
func TestBadTaskAddressIsTheClientsError(t *testing.T) {
	s := newSite(t)
	for path, want := range map[string]int{
		"/t/..%2f..%2fetc":  http.StatusBadRequest,
		"/t/tm-%21%21":      http.StatusBadRequest,
		"/t/tm-zzzz":        http.StatusNotFound,
		"/t/" + "tm-" + "a": http.StatusOK, // a unique prefix is fine (tm-ask1)
	} {
		resp, body := s.do("GET", "/r/"+config.RepoKey(s.root)+path, nil, nil)
		if resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d (%s)", path, resp.StatusCode, want, body)
		}
	}
}
