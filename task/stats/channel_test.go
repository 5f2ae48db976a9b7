package stats

import "testing"

func TestChannel(t *testing.T) {
	for by, want := range map[string]string{"human": "cli", "board": "board", "web:ann": "web", "link": "link",
		"ntfy": "ntfy", "slack": "slack", "continue:ann": "takeover", "worker-1": "other"} {
		if got := channel(by); got != want {
			t.Errorf("channel(%q) = %q, want %q", by, got, want)
		}
	}
}
