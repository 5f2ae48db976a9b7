package agent

import (
	"errors"
	"testing"
)

// Claude's results for an API it cannot reach or a missing login, as
// claude 2.1.330 printed them (measured against a closed port, a name
// that does not resolve, a server that never answers, and no key): each
// is an outage of the agent, not the task's failure.
func TestClaudeOutagesWithoutStatus(t *testing.T) {
	for _, c := range []struct {
		name, result string
		want         Outage
	}{
		{"refused", `{"type":"result","subtype":"success","is_error":true,"api_error_status":null,"api_error":"connection_failed",` +
			`"result":"API Error: Connection refused — a firewall or proxy may be blocking it (ECONNREFUSED)","session_id":"s"}`, OutageUnreachable},
		{"dns", `{"type":"result","subtype":"success","is_error":true,"api_error_status":null,"api_error":"connection_failed",` +
			`"result":"API Error: Can't reach the API server — check your internet or DNS (ENOTFOUND)","session_id":"s"}`, OutageUnreachable},
		{"timeout", `{"type":"result","subtype":"success","is_error":true,"api_error_status":null,"api_error":null,` +
			`"result":"Request timed out. If the API is slow to answer, or a proxy or gateway holds responses, set API_TIMEOUT_MS above 3000.","session_id":"s"}`, OutageUnreachable},
		{"not logged in", `{"type":"result","subtype":"success","is_error":true,"api_error_status":null,"api_error":null,` +
			`"result":"Not logged in · Please run /login","session_id":"s"}`, OutageAuth},
		{"a task's own error", `{"type":"result","subtype":"error_max_turns","is_error":true,"result":"","session_id":"s"}`, ""},
	} {
		_, err := ParseClaude([]byte(c.result))
		var re *RunError
		if !errors.As(err, &re) || re.Outage != c.want || OutageOf(err) != c.want {
			t.Errorf("%s: %v, outage %q, want %q", c.name, err, OutageOf(err), c.want)
		}
	}
	if OutageUnreachable.Lasting() || !OutageAuth.Lasting() {
		t.Error("an unreachable API is time's to cure, a missing login a human's")
	}
}

func TestCodexOutagesWithoutStatus(t *testing.T) {
	for msg, want := range map[string]Outage{
		"stream error: error sending request for url (http://127.0.0.1:9/v1/responses): Connection refused (os error 111)": OutageUnreachable,
		"unexpected status 401 Unauthorized: bad key": OutageAuth,
		"the model refused":                           "",
	} {
		if got := codexOutage(msg); got != want {
			t.Errorf("%q: %q, want %q", msg, got, want)
		}
	}
}

// Codex waits for a network that does not come with growing pauses, for
// ever: its stream is read, and the run stopped after netTries waits.
func TestCodexNetworkWaitsStopTheRun(t *testing.T) {
	var got []Outage
	var steps []string
	w := newStepWriter(Request{Step: func(s string) { steps = append(steps, s) }}, "")
	w.stop = func(o Outage) { got = append(got, o) }
	line := `{"type":"error","message":"Reconnecting... waiting for network (Connection failed: error sending request)"}` + "\n"
	for i := 0; i < netTries+2; i++ {
		if len(got) > 0 && i < netTries {
			t.Fatalf("stopped after %d waits", i)
		}
		w.Write([]byte(line))
	}
	if len(got) != 1 || got[0] != OutageUnreachable || len(steps) != netTries-1 {
		t.Fatalf("stops %v, steps %q", got, steps)
	}
}
