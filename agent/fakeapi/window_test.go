package fakeapi

import (
	"strconv"
	"testing"
	"time"
)

// The exhausted window as the real API sends it, for n requests, then
// the script's turns, the first of them warning that the window is
// nearly used up.
func TestExhaustThenWarn(t *testing.T) {
	reset := time.Now().Add(time.Hour)
	srv := New(t, Sequence(Reply(Text("hi")).Warn(reset)))
	srv.Exhaust(reset, 1)
	resp := post(t, srv, "/v1/messages", mainBody)
	h := resp.Header
	if resp.StatusCode != 429 || h.Get("anthropic-ratelimit-unified-status") != "rejected" ||
		h.Get("anthropic-ratelimit-unified-reset") != strconv.FormatInt(reset.Unix(), 10) ||
		h.Get("anthropic-ratelimit-unified-representative-claim") != "five_hour" || h.Get("retry-after") == "" {
		t.Fatalf("exhausted: %d %v", resp.StatusCode, h)
	}
	resp = post(t, srv, "/v1/messages", mainBody)
	if resp.StatusCode != 200 || resp.Header.Get("anthropic-ratelimit-unified-5h-status") != "allowed_warning" {
		t.Fatalf("after one refusal: %d %v", resp.StatusCode, resp.Header)
	}
	if srv.Refused() != 1 || len(srv.Requests()) != 1 || srv.Requests()[0].N != 1 {
		t.Errorf("refused %d, requests %d: the refused one reaches no script", srv.Refused(), len(srv.Requests()))
	}
}
