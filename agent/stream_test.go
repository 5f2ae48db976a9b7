package agent

import (
	"fmt"
	"strings"
	"testing"
)

// claude retries an API it cannot reach for minutes: after netTries
// retries with no answer from the API (no connection, or the egress
// proxy's 502 or 504) bh stops it as an outage; a 401 stops it at once;
// the API's own overload (529) is left to claude's retries.
func TestClaudeRetriesThatNeverReachTheAPI(t *testing.T) {
	for _, tt := range []struct {
		status int
		tries  int
		want   Outage
	}{
		{0, netTries, OutageUnreachable},
		{502, netTries, OutageUnreachable},
		{504, netTries, OutageUnreachable},
		{0, netTries - 1, ""},
		{401, 1, OutageAuth},
		{529, 10, ""},
	} {
		var got Outage
		w := &stepWriter{stop: func(o Outage) { got = o }}
		for i := 1; i <= tt.tries; i++ {
			fmt.Fprintf(w, `{"type":"system","subtype":"api_retry","error_status":%d,"error":"unknown","attempt":%d,"max_retries":10}`+"\n", tt.status, i)
		}
		if got != tt.want {
			t.Errorf("%d retries of status %d: outage %q, want %q", tt.tries, tt.status, got, tt.want)
		}
	}
}

// bh's egress proxy answers 502 when it cannot connect to the API; with
// the dial's words that is the API unreachable, not overloaded.
func TestGatewayThatCouldNotConnectIsUnreachable(t *testing.T) {
	for _, tt := range []struct {
		status int
		msg    string
		want   Outage
	}{
		{502, "API Error: 502 dial tcp 127.0.0.1:45999: connect: connection refused", OutageUnreachable},
		{502, "API Error: 502 Bad Gateway", OutageOverloaded},
		{529, "API Error: 529 overloaded", OutageOverloaded},
	} {
		if got := (claudeResult{APIErrorStatus: tt.status}).outage(tt.msg); got != tt.want {
			t.Errorf("claude %d %q: %q, want %q", tt.status, tt.msg, got, tt.want)
		}
		if got := codexOutage("unexpected status " + strings.TrimPrefix(tt.msg, "API Error: ")); got != tt.want {
			t.Errorf("codex %q: %q, want %q", tt.msg, got, tt.want)
		}
	}
}
