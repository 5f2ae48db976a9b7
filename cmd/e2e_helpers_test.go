package cmd

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
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
func bhE2E(t testing.TB, dir string, args ...string) string {
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

// The shared end-to-end helpers (cmd/internal/e2e), by the names this
// package's tests know them.
var (
	binE2E     = e2e.Bin
	gitE2E     = e2e.Git
	writeE2E   = e2e.Write
	readE2E    = e2e.Read
	splitTxtar = e2e.SplitTxtar
)

// repoE2E makes dir a git repository with bh initialised, config as its
// .bh/config.yaml and a first commit.
func repoE2E(t *testing.T, dir, config string) { e2e.Bh(bhE2E).Repo(t, dir, config) }

func bhTask(t *testing.T, dir, id string) *task.Task { return e2e.Bh(bhE2E).Task(t, dir, id) }
