package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMemoReplaysUntilAHandEdit: in a pipe, bh list, ready and tree print
// their output again from its memo while no task file changed, each for
// its own command line; a hand edit made a moment ago is seen at once.
func TestMemoReplaysUntilAHandEdit(t *testing.T) {
	dir := t.TempDir()
	repoE2E(t, dir, "prefix: tm\n")
	parent := strings.TrimSpace(bhE2E(t, dir, "add", "Parent task"))
	child := strings.TrimSpace(bhE2E(t, dir, "add", "Child task", "--parent", parent))
	bhE2E(t, dir, "add", "Waits for the child", "--depends-on", child)
	bhE2E(t, dir, "close", strings.TrimSpace(bhE2E(t, dir, "add", "Done already")))
	// bh trusts a stamp only once the file is older than 2 s (coarse file
	// system clocks): until then nothing can be kept.
	time.Sleep(2100 * time.Millisecond)

	cache := filepath.Join(dir, ".git", "bh", "cache")
	views := [][]string{{"list"}, {"list", "--all"}, {"list", "--json"}, {"ready"}, {"tree"}, {"tree", "--json"}}
	first := map[string]string{}
	for _, args := range views {
		line := strings.Join(args, " ")
		out := bhE2E(t, dir, args...)
		memo := filepath.Join(cache, "memo-"+args[0]+".bin")
		kept, err := os.Stat(memo)
		if err != nil {
			t.Fatalf("bh %s kept no memo: %v", line, err)
		}
		if again := bhE2E(t, dir, args...); again != out {
			t.Fatalf("bh %s again:\n%s\nwant\n%s", line, again, out)
		}
		if now, err := os.Stat(memo); err != nil || !os.SameFile(now, kept) {
			t.Fatalf("bh %s again made its output afresh, not from its memo", line)
		}
		first[line] = out
	}
	if first["list"] == first["list --all"] || first["list"] == first["ready"] {
		t.Fatalf("the views printed the same: the test shows nothing: %q", first)
	}

	p := filepath.Join(dir, ".bh", "tasks", child+".yaml")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, []byte(strings.Replace(string(b), "Child task", "Renamed by hand", 1)), 0o644)
	for _, args := range views {
		if out := bhE2E(t, dir, args...); !strings.Contains(out, "Renamed by hand") {
			t.Errorf("bh %s after a hand edit:\n%s", strings.Join(args, " "), out)
		}
	}
}

// failAfter takes n bytes, then fails, as a pipe closed by its reader.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, os.ErrClosed
	}
	f.n -= len(p)
	return len(p), nil
}

// TestKeeperKeepsOnlyWholeOutput: what a reader took is kept; an output
// whose reader went away is not whole, and says so.
func TestKeeperKeepsOnlyWholeOutput(t *testing.T) {
	k := &keeper{w: &failAfter{n: 1 << 20}}
	row := []byte(strings.Repeat("x", 99) + "\n")
	for range 5000 { // half a megabyte
		k.Write(row)
	}
	if got := len(k.b); got != 5000*len(row) || k.failed {
		t.Fatalf("kept %d bytes (failed %v), want %d", got, k.failed, 5000*len(row))
	}
	for range 6000 {
		k.Write(row)
	}
	if !k.failed {
		t.Fatal("a write that failed left the output whole")
	}
}
