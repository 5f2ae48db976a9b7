package task

import (
	"strings"
	"testing"
)

// Emoji are written as emoji, and read back the same; a title that holds
// the text \U0001F41B keeps it as text.
func TestEmojiStayEmoji(t *testing.T) {
	for _, title := range []string{"🐛 fix the bug é", `literally \U0001F41B`, "a \"quoted\" 🐛 and \\ 🎉"} {
		b, err := Render(&Task{ID: "tm-e1", Title: title, Type: "code", Priority: "P2", State: Open}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(title, "🐛") && !strings.Contains(string(b), "🐛") {
			t.Errorf("%q encoded as:\n%s", title, b)
		}
		got, err := Decode("x.yaml", b, "tm-e1")
		if err != nil || got.Title != title {
			t.Errorf("%q read back as %q (%v):\n%s", title, got.Title, err, b)
		}
	}
}
