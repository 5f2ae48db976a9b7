package fakeapi

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestClaudeIsInstalled(t *testing.T) {
	bin := Claude(t)
	if !filepath.IsAbs(bin) {
		t.Fatalf("Claude() = %q, want an absolute path", bin)
	}
}

// TestRealClaudeStaysOffline runs the real CLI with Env: it must talk to
// nothing but the fake Messages API and keep its files under the fake HOME.
func TestRealClaudeStaysOffline(t *testing.T) {
	srv := New(t, Sequence(Reply(Text("hello from the fake"))))
	cmd := exec.Command(Claude(t), "-p", "--output-format", "json")
	cmd.Dir = t.TempDir()
	env := Env(t, srv)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader("say hello")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("claude: %v\n%s%s", err, stdout.Bytes(), stderr.Bytes())
	}
	var res struct {
		Result  string `json:"result"`
		IsError bool   `json:"is_error"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || res.IsError || res.Result != "hello from the fake" {
		t.Fatalf("claude printed %s (%v)", stdout.Bytes(), err)
	}
	if other := srv.Other(); len(other) > 0 {
		t.Errorf("claude called other endpoints: %q", other)
	}
	if side := srv.SideRequests(); len(side) > 0 {
		t.Errorf("claude made %d side requests", len(side))
	}
	home := strings.TrimPrefix(env[0], "HOME=")
	sessions, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*.jsonl"))
	if len(sessions) != 1 {
		t.Errorf("session files under the fake HOME: %q", sessions)
	}
}
