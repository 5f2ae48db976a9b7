package ask

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCapText(t *testing.T) {
	long := strings.Repeat("a", MaxTextBytes+1)
	tests := []struct {
		name string
		in   string
		cut  bool
	}{
		{"empty", "", false},
		{"short", "done", false},
		{"exactly the cap", long[:MaxTextBytes], false},
		{"one byte over", long, true},
		{"far over", strings.Repeat("a", 1<<20), true},
		{"two-byte runes", "a" + strings.Repeat("é", MaxTextBytes), true},
		{"four-byte runes", strings.Repeat("🙂", MaxTextBytes), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CapText(tt.in)
			if !tt.cut {
				if got != tt.in {
					t.Errorf("CapText changed a text of %d bytes", len(tt.in))
				}
				return
			}
			// The head of the text, then the marker saying how much is cut,
			// as much as fits and cut between runes.
			kept := strings.LastIndex(got, "\n… (cut: ")
			if kept < 0 || got[:kept] != tt.in[:kept] || got[kept:] != cutMarker(len(tt.in)-kept) {
				t.Fatalf("CapText ends %q, want the text's head and a marker", got[max(0, len(got)-60):])
			}
			if len(got) > MaxTextBytes || len(got) < MaxTextBytes-8 || !utf8.ValidString(got) {
				t.Errorf("CapText gave %d bytes, valid UTF-8 %v; want %d at most, and little less",
					len(got), utf8.ValidString(got), MaxTextBytes)
			}
		})
	}
}
