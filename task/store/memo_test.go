package store

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/bh-tracker/bh/task/internal/tasktest"
)

// keepMemo lists s and keeps out as the "list" memo for key, reporting
// whether the listing could vouch for it.
func keepMemo(t *testing.T, s *Store, key, out string) bool {
	t.Helper()
	_, _, _, st, err := s.ListMemo("list", "", true)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SaveMemo("list", key, st, []byte(out)); err != nil {
		t.Fatal(err)
	}
	return st.Valid()
}

func memo(s *Store, key string) string {
	out, _ := s.memo("list", key)
	if out == nil {
		return "(none)"
	}
	return string(out)
}

// TestMemo: a memo holds while no task file, the folder or config.yaml
// changed, and for its own key only; any change, a hand edit a moment ago
// among them, ends it.
func TestMemo(t *testing.T) {
	id := tasktest.GenID(3)
	for _, c := range []struct {
		name   string
		change func(t *testing.T, s *Store)
	}{
		{"nothing", func(*testing.T, *Store) {}},
		{"a hand edit", func(t *testing.T, s *Store) {
			b := readFile(t, taskFile(s, id))
			writeFile(t, taskFile(s, id), string(b)) // the same bytes, even
		}},
		{"a new task", func(t *testing.T, s *Store) {
			b := readFile(t, taskFile(s, id))
			writeFile(t, taskFile(s, "tm-zzzzz"), string(b))
		}},
		{"a task removed", func(t *testing.T, s *Store) { os.Remove(taskFile(s, id)) }},
		{"a task renamed", func(t *testing.T, s *Store) {
			os.Rename(taskFile(s, id), taskFile(s, "tm-zzzzz"))
		}},
		{"config.yaml edited", func(t *testing.T, s *Store) {
			p := filepath.Join(s.Dir, "config.yaml")
			writeFile(t, p, string(readFile(t, p))+"# note\n")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t)
			writeStore(t, s, 40)
			settle()
			if !keepMemo(t, s, "k", "the output\n") {
				t.Fatal("a settled store's listing cannot vouch for its memo")
			}
			if got := memo(s, "other"); got != "(none)" {
				t.Fatalf("memo for another key: %q", got)
			}
			c.change(t, s)
			want := "(none)"
			if c.name == "nothing" {
				want = "the output\n"
			}
			if got := memo(s, "k"); got != want {
				t.Fatalf("memo after %s: %q, want %q", c.name, got, want)
			}
			settle() // and once the change has settled
			if got := memo(s, "k"); got != want {
				t.Fatalf("memo after %s, settled: %q, want %q", c.name, got, want)
			}
			// The listing that follows a memo that no longer holds uses
			// the stamps taken to find out, and reads what changed.
			out, tasks, _, _, err := s.ListMemo("list", "k", false)
			if err != nil || (out == nil) != (want == "(none)") {
				t.Fatalf("ListMemo: memo %q, %v", out, err)
			}
			if all := direct(t, s); out == nil && !reflect.DeepEqual(tasks, all) {
				t.Fatalf("listed %d tasks after %s, unlike the files (%d)", len(tasks), c.name, len(all))
			}
		})
	}
}

// TestMemoKeepsNothingUnsure: a listing that met a file changed a moment
// ago, or one it could not read, vouches for nothing; a torn memo is none.
func TestMemoKeepsNothingUnsure(t *testing.T) {
	s := newStore(t)
	writeStore(t, s, 40)
	if keepMemo(t, s, "k", "young\n") || memo(s, "k") != "(none)" {
		t.Fatal("a memo kept over files written a moment ago")
	}
	settle()
	writeFile(t, taskFile(s, "tm-zzzzz"), "title: [unclosed\n")
	settle()
	if keepMemo(t, s, "k", "bad\n") || memo(s, "k") != "(none)" {
		t.Fatal("a memo kept over a file that does not parse")
	}
	os.Remove(taskFile(s, "tm-zzzzz"))
	settle()
	if !keepMemo(t, s, "k", "whole\n") || memo(s, "k") != "whole\n" {
		t.Fatal("no memo over a settled store")
	}
	p := s.memoPath("list")
	b := readFile(t, p)
	b[len(b)-6] ^= 1 // in the output
	writeFile(t, p, string(b))
	if got := memo(s, "k"); got != "(none)" {
		t.Fatalf("a torn memo was used: %q", got)
	}
}
