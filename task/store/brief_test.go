package store

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// TestListBrief: ListBrief is List with each history cut to the last
// question asked, cold or warm, and its tasks cannot be written back.
func TestListBrief(t *testing.T) {
	s := newStore(t)
	writeStore(t, s, 30)
	settle()
	check := func(when string, wantParsed int) {
		t.Helper()
		brief, _, r, err := s.list(true)
		if err != nil || r.parsed != wantParsed {
			t.Fatalf("%s: parsed %d, %v", when, r.parsed, err)
		}
		full, _, err := s.List()
		if err != nil {
			t.Fatal(err)
		}
		if len(brief) != len(full) {
			t.Fatalf("%s: %d brief tasks, %d full", when, len(brief), len(full))
		}
		asked := 0
		for i, b := range brief {
			want := *full[i]
			trim(&want)
			if !reflect.DeepEqual(b, &want) {
				t.Fatalf("%s: brief %s:\n%#v\nwant\n%#v", when, b.ID, b, &want)
			}
			if e, ok := b.LastAsked(); ok {
				asked++
				if w, _ := full[i].LastAsked(); !reflect.DeepEqual(e, w) {
					t.Fatalf("%s: %s asked %+v, want %+v", when, b.ID, e, w)
				}
			}
		}
		if asked != 3 {
			t.Fatalf("%s: %d tasks asked something, want 3", when, asked)
		}
	}
	check("cold", 30) // tasks parsed from their files, then cut
	check("warm", 0)  // tasks decoded brief from the cache

	brief, _, _ := s.ListBrief()
	before := readFile(t, s.Path(brief[0].ID))
	brief[0].Title = "changed"
	if err := s.Put(brief[0]); err == nil || !strings.Contains(err.Error(), "without its history") {
		t.Fatalf("put of a brief task: %v", err)
	}
	if !bytes.Equal(before, readFile(t, s.Path(brief[0].ID))) {
		t.Fatal("a brief task was written")
	}
}
