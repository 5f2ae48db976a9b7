package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
)

// realTimeout is the agent timeout of the configs of tests that run a
// real claude or codex: it bounds a failure, never a pass.
var realTimeout = fakeapi.Patience(time.Minute).Round(time.Second).String()

// requestsFor lists the server's requests whose prompt names title.
func requestsFor(srv *fakeapi.Server, title string) []*fakeapi.Request {
	var out []*fakeapi.Request
	for _, r := range srv.Requests() {
		if strings.Contains(r.Prompt(), title) {
			out = append(out, r)
		}
	}
	return out
}

// bhE2E runs bh in process in dir and returns its stdout.
func bhE2E(t *testing.T, dir string, args ...string) string {
	t.Helper()
	f := newFactory()
	var out, errOut *bytes.Buffer
	f.IO, _, out, errOut = testIO()
	f.WorkDir = func() (string, error) { return dir, nil }
	if code := run(f, args); code != 0 {
		t.Fatalf("bh %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errOut.String())
	}
	t.Logf("bh %s:\n%s", strings.Join(args, " "), errOut.String())
	return out.String()
}

// binE2E is a folder, for PATH, where the test binary is bh and fakeagent
// (TestMain runs it as the one its name says).
func binE2E(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(root, "bin")
	os.MkdirAll(bin, 0o755)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"bh", "fakeagent"} {
		if err := os.Symlink(self, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

func bhTask(t *testing.T, dir, id string) *task.Task {
	t.Helper()
	var tk task.Task
	if err := json.Unmarshal([]byte(bhE2E(t, dir, "show", id, "--json")), &tk); err != nil {
		t.Fatal(err)
	}
	return &tk
}

func gitE2E(t *testing.T, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeE2E(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readE2E(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sortedLines(s string) []string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(l)
	return l
}

// wrote reports whether the conversation so far called Write on name.
func wrote(req *fakeapi.Request, name string) bool {
	for _, u := range req.ToolUses() {
		var in struct {
			Path string `json:"file_path"`
		}
		if u.Name == "Write" && json.Unmarshal(u.Input, &in) == nil && filepath.Base(in.Path) == name {
			return true
		}
	}
	return false
}

// repoE2E makes dir a git repository with bh initialised, config as its
// .bh/config.yaml and a first commit.
func repoE2E(t *testing.T, dir, config string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitE2E(t, dir, "init", "-q", "-b", "main")
	gitE2E(t, dir, "config", "user.name", "bh test")
	gitE2E(t, dir, "config", "user.email", "bh@example.com")
	bhE2E(t, dir, "init")
	writeE2E(t, dir, ".bh/config.yaml", config)
	gitE2E(t, dir, "add", "-A")
	gitE2E(t, dir, "commit", "-q", "-m", "init")
}
