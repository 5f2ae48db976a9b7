package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/google/uuid"
)

// TestProjectSlug: the folder names claude 2.1.330 gives these working
// directories (computed with its own function, run in node).
func TestProjectSlug(t *testing.T) {
	deep := "/home/u/" + strings.Repeat("deep/", 45) + "wt-tm-a1b2"
	for in, want := range map[string]string{
		"/tmp/a b/ünï😀x":                 "-tmp-a-b--n---x", // an astral character is two UTF-16 units
		deep:                             "-home-u" + strings.Repeat("-deep", 48)[:193] + "-156xxo",
		"/x/" + strings.Repeat("é😀", 80): "-x-" + strings.Repeat("-", 197) + "-ydbniy",
	} {
		if got := projectSlug(in); got != want {
			t.Errorf("projectSlug(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

// TestClaudeSessionFileOfALongPath: in a working directory whose folder
// name claude cuts and hashes, bh finds the session where claude wrote it.
func TestClaudeSessionFileOfALongPath(t *testing.T) {
	t.Parallel()
	e := newE2E(t, ClaudeConfig{}, func(req *fakeapi.Request) fakeapi.Turn {
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "done"}))
	})
	e.dir = filepath.Join(e.dir, strings.Repeat("a-long-folder-name/", 12))
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if len(projectSlug(e.dir)) <= maxSlug {
		t.Fatalf("the path is not long enough: %d", len(e.dir))
	}
	session := uuid.NewString()
	if _, err := e.run(t, "do it", session, false); err != nil {
		t.Fatal(err)
	}
	path := e.claude.SessionFile(Request{Dir: e.dir, SessionID: session, Env: e.env})
	if _, err := os.Stat(path); err != nil {
		found, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(path)), "*", session+".jsonl"))
		t.Errorf("bh looks for the session at %s: %v; claude wrote %v", path, err, found)
	}
}
