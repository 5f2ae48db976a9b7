package task

import "testing"

// One person is one name: this machine's human is "you", with the channel
// beside it in the word every output uses (Channel); anyone else as they are.
func TestWho(t *testing.T) {
	for by, want := range map[string]string{
		"human": "you", "web:ann": "you (web)", "link": "you (link)", "ntfy": "you (ntfy)",
		"slack": "you (slack)", "board": "you (board)", "continue:ann": "you (takeover)", "continue:bob": "bob (takeover)", "web:bob": "bob (web)", "w1": "w1", "alice": "alice",
	} {
		if got := Who(by, "ann"); got != want {
			t.Errorf("Who(%q) = %q, want %q", by, got, want)
		}
	}
}
