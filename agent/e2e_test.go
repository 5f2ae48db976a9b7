package agent

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
)

var update = flag.Bool("update", false, "rewrite testdata/claude from live claude runs")

// e2e is the real claude binary talking to a fake Messages API, in a real
// git repository, with its own HOME shared by all runs of one test.
type e2e struct {
	srv    *fakeapi.Server
	env    []string
	dir    string
	claude *Claude
}

func newE2E(t *testing.T, cfg ClaudeConfig, script fakeapi.Script) *e2e {
	t.Helper()
	cfg.Binary = fakeapi.Claude(t)
	if cfg.Timeout == 0 {
		cfg.Timeout = fakeapi.Patience(30 * time.Second)
	}
	srv := fakeapi.New(t, script)
	return &e2e{srv: srv, env: fakeapi.Env(t, srv), dir: gitRepo(t), claude: NewClaude(cfg)}
}

func (e *e2e) run(t *testing.T, prompt, session string, resume bool) (*Outcome, error) {
	t.Helper()
	start := time.Now()
	pgid := 0
	out, err := e.claude.Run(context.Background(), Request{Prompt: prompt, Dir: e.dir, SessionID: session,
		Resume: resume, TaskID: "bh-test", Env: e.env, Started: func(g int) { pgid = g }})
	t.Logf("claude run took %s", time.Since(start).Round(time.Millisecond))
	if pgid <= 0 {
		t.Errorf("Request.Started was not called with claude's process group id")
	}
	return out, err
}

// gitRepo makes a repository with one commit.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "user.email", "test@example.com"},
		{"config", "user.name", "Test"},
		{"commit", "-q", "--allow-empty", "-m", "initial"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func gitStatus(t *testing.T, dir string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "status", "--porcelain").CombinedOutput()
	if err != nil {
		t.Fatalf("git status: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// saveTranscript keeps claude's stdout as test data when run with -update.
func saveTranscript(t *testing.T, name string, raw []byte) {
	t.Helper()
	if !*update {
		return
	}
	if err := os.WriteFile(filepath.Join("testdata", "claude", name), raw, 0o644); err != nil {
		t.Fatal(err)
	}
}
