package fakeapi

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRealCodexStaysOffline runs the real CLI with CodexEnv: it must talk
// to nothing but the fake Responses API and keep its thread under the fake
// CODEX_HOME; the streamed text is its last message.
func TestRealCodexStaysOffline(t *testing.T) {
	srv := NewResponses(t, CodexSequence(Reply(Text("hello from the fake"))))
	dir := t.TempDir()
	last := filepath.Join(dir, "last.txt")
	cmd := exec.Command(Codex(t), "exec", "--json", "--skip-git-repo-check", "-o", last, "-")
	cmd.Dir = dir
	env := CodexEnv(t, srv)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader("say hello")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("codex: %v\n%s%s", err, stdout.Bytes(), stderr.Bytes())
	}
	if got, _ := os.ReadFile(last); string(got) != "hello from the fake" {
		t.Errorf("last message %q\n%s", got, stdout.Bytes())
	}
	if !strings.Contains(stdout.String(), `"type":"thread.started"`) {
		t.Errorf("no thread.started event:\n%s", stdout.Bytes())
	}
	if other := srv.Other(); len(other) > 0 {
		t.Errorf("codex called other endpoints: %q", other)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Prompt() != "say hello" || len(reqs[0].Format) != 0 {
		t.Fatalf("requests: %d, prompt %q, format %s", len(reqs), reqs[0].Prompt(), reqs[0].Format)
	}
	i := slices.IndexFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "CODEX_HOME=") })
	home := strings.TrimPrefix(env[i], "CODEX_HOME=")
	rollouts, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*", "rollout-*.jsonl"))
	if len(rollouts) != 1 {
		t.Errorf("rollouts under the fake CODEX_HOME: %q", rollouts)
	}
}
