package mcp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bh-tracker/bh/agent/ask"
)

// The outbox is the agent's to write, and the worker reads it outside the
// sandbox: whatever the agent puts at asked.jsonl in place of bh mcp's
// file is refused as the agent's failure (OutboxError), never followed,
// never read past its cap, and gone afterwards, so that the next run
// starts afresh.
func TestHostileOutboxIsRefused(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(secret, []byte(`{"question":"-----BEGIN OPENSSH PRIVATE KEY-----"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	line := `{"question":"Which?","type":"freeform"}` + "\n"
	for name, tt := range map[string]struct {
		plant func(path string) error
		want  string // in the error; "" wants none
		n     int    // questions taken
	}{
		"a link to a secret": {func(p string) error { return os.Symlink(secret, p) }, "symbolic link", 0},
		"a FIFO":             {func(p string) error { return syscall.Mkfifo(p, 0o600) }, "not a regular file", 0},
		"a folder":           {func(p string) error { return os.MkdirAll(filepath.Join(p, "x"), 0o755) }, "not a regular file", 0},
		"too large": {func(p string) error {
			return os.WriteFile(p, []byte(strings.Repeat(line, MaxOutboxBytes/len(line)+1)), 0o600)
		}, "larger than", 0},
		"a line over the limit": {func(p string) error {
			return os.WriteFile(p, []byte(`{"question":"`+strings.Repeat("q", MaxQuestionBytes+1)+`"}`+"\n"), 0o600)
		}, "a line over", 0},
		"a line that is no question": {func(p string) error { return os.WriteFile(p, []byte(line+"rm -rf\n"), 0o600) }, "line 2: no question", 0},
		"a last line cut short":      {func(p string) error { return os.WriteFile(p, []byte(line+`{"quest`), 0o600) }, "", 1},
	} {
		t.Run(name, func(t *testing.T) {
			outbox := t.TempDir()
			if err := tt.plant(filepath.Join(outbox, askedFile)); err != nil {
				t.Fatal(err)
			}
			qs, err := TakeAsked(outbox)
			var bad *OutboxError
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.want != "" && (!errors.As(err, &bad) || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want an OutboxError saying %q", err, tt.want)
			case len(qs) != tt.n:
				t.Fatalf("took %d questions, want %d: %+v", len(qs), tt.n, qs)
			}
			if _, err := os.Lstat(filepath.Join(outbox, askedFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("left in the outbox: %v", err)
			}
			if b, _ := os.ReadFile(secret); !strings.Contains(string(b), "PRIVATE KEY") {
				t.Errorf("the link's target was touched")
			}
		})
	}
}

// Without an outbox, bh mcp refuses to take a question rather than lose it.
func TestNoOutboxRefusesQuestions(t *testing.T) {
	if err := record("", ask.Question{Question: "Which?"}); err == nil || !strings.Contains(err.Error(), OutboxEnv) {
		t.Fatalf("record without an outbox: %v", err)
	}
}
