// Package e2e holds what bh's end-to-end tests share: the test binary
// standing in for bh and for a fake coding agent, and helpers that run bh
// and git in temporary repositories. The heaviest end-to-end groups live
// in test packages of their own under it (crash, synckill, realagent), so
// that each test binary has its own time budget and `go test ./...` runs
// them side by side.
package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"golang.org/x/tools/txtar"
)

// Main is TestMain of an end-to-end test package whose tests run bh as a
// program: the test binary is bh (bhMain) when run under that name (Bin),
// or when bh runs itself by os.Executable (SelfIsBh), and the fake agent
// under its name.
func Main(m interface{ Run() int }, bhMain func() int) {
	switch filepath.Base(os.Args[0]) {
	case "bh":
		os.Exit(bhMain())
	case "fakeagent":
		os.Exit(FakeAgent())
	case "ttypush":
		os.Exit(TTYPush())
	}
	if SelfIsBh() {
		os.Exit(bhMain())
	}
	// bh registers the repositories it works in, and keeps its state: in a
	// home of the tests' own, not the machine's.
	os.Exit(fakeapi.Isolated(m.Run))
}

// SelfIsBh says whether bh started the test binary as itself, by
// os.Executable: claude starting bh's MCP server, bh board opening bh continue,
// a sandbox starting its network bridge.
func SelfIsBh() bool {
	return len(os.Args) > 1 && (os.Args[1] == "mcp" || os.Args[1] == "continue" || os.Args[1] == "sandbox-bridge" || os.Args[1] == "sandbox-gocache")
}

// Bin makes root/bin, a folder for PATH where the test binary is bh, ttypush and
// fakeagent, and returns it.
func Bin(t testing.TB, root string) string {
	t.Helper()
	bin := filepath.Join(root, "bin")
	os.MkdirAll(bin, 0o755)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"bh", "fakeagent", "ttypush"} {
		if err := os.Symlink(self, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

// Bh runs bh in dir and returns its stdout; a failure fails t.
type Bh func(t testing.TB, dir string, args ...string) string

// Process is Bh as a program: the test binary, run under the name bh (see Main).
var Process Bh = func(t testing.TB, dir string, args ...string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	c := &exec.Cmd{Path: self, Args: append([]string{"bh"}, args...), Dir: dir, Stdout: &out, Stderr: &errOut}
	if err := c.Run(); err != nil {
		t.Fatalf("bh %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errOut.String())
	}
	t.Logf("bh %s:\n%s", strings.Join(args, " "), errOut.String())
	return out.String()
}

// Repo makes dir a git repository with bh initialised, config as its
// .bh/config.yaml and a first commit.
func (bh Bh) Repo(t testing.TB, dir, config string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	Git(t, dir, "init", "-q", "-b", "main")
	Git(t, dir, "config", "user.name", "bh test")
	Git(t, dir, "config", "user.email", "bh@example.com")
	bh(t, dir, "init")
	Write(t, dir, ".bh/config.yaml", config)
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "-m", "init")
}

// Task is bh show ID --json.
func (bh Bh) Task(t testing.TB, dir, id string) *task.Task {
	t.Helper()
	var tk task.Task
	if err := json.Unmarshal([]byte(bh(t, dir, "show", id, "--json")), &tk); err != nil {
		t.Fatal(err)
	}
	return &tk
}

// Git runs git in dir and returns its output, trimmed.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func Write(t testing.TB, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func Read(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// SplitTxtar is the files of the txtar archive s, by name.
func SplitTxtar(s string) map[string]string {
	out := map[string]string{}
	for _, f := range txtar.Parse([]byte(s)).Files {
		out[f.Name] = string(f.Data)
	}
	return out
}

// RealTimeout is the agent timeout of the configs of tests that run a
// real claude or codex: it bounds a failure, never a pass.
var RealTimeout = fakeapi.Patience(time.Minute).Round(time.Second).String()

// RequestsFor lists the server's requests whose prompt names title.
func RequestsFor(srv *fakeapi.Server, title string) []*fakeapi.Request {
	var out []*fakeapi.Request
	for _, r := range srv.Requests() {
		if strings.Contains(r.Prompt(), title) {
			out = append(out, r)
		}
	}
	return out
}

// Wrote reports whether the conversation so far called Write on name.
func Wrote(req *fakeapi.Request, name string) bool {
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
