package cmd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/task"
)

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

// The shared end-to-end helpers (cmd/internal/e2e), by the names this
// package's tests know them.
var (
	binE2E      = e2e.Bin
	gitE2E      = e2e.Git
	writeE2E    = e2e.Write
	readE2E     = e2e.Read
	splitTxtar  = e2e.SplitTxtar
	realTimeout = e2e.RealTimeout
	requestsFor = e2e.RequestsFor
	wrote       = e2e.Wrote
)

// repoE2E makes dir a git repository with bh initialised, config as its
// .bh/config.yaml and a first commit.
func repoE2E(t *testing.T, dir, config string) { e2e.Bh(bhE2E).Repo(t, dir, config) }

func bhTask(t *testing.T, dir, id string) *task.Task { return e2e.Bh(bhE2E).Task(t, dir, id) }

// testIO is streams backed by buffers, not a terminal, without colour.
func testIO() (s *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = new(bytes.Buffer), new(bytes.Buffer), new(bytes.Buffer)
	return &IOStreams{In: in, Out: out, ErrOut: errOut, Term: errOut}, in, out, errOut
}
