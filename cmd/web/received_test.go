package web

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An answer given on the page goes out as input.received when it is
// recorded, naming web:<user> and the answer: the same step as bh respond's.
func TestAnswerNotifies(t *testing.T) {
	s := newSite(t)
	sent := filepath.Join(t.TempDir(), "sent")
	cfg := filepath.Join(s.root, ".bh", "config.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, []byte("notify:\n  - events: [input.received]\n    command: 'printf \"%s %s %s\\n\" \"$BH_EVENT\" \"$BH_ANSWERED_BY\" \"$BH_ANSWER\" >> "+sent+"'\n")...)
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if resp, body := s.answer(url.Values{"q": {"q3"}, "text": {"Keep it small."}}, nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	got, err := os.ReadFile(sent)
	if err != nil || strings.TrimSpace(string(got)) != "input.received web:alice Keep it small." {
		t.Errorf("sent %q (%v)", got, err)
	}
}
