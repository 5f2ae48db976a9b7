package task

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestResolveID(t *testing.T) {
	ids := []string{"tm-a1b2", "tm-a1c3", "tm-x9zz", "tm-b7k2q", "tm-tm01"}
	for _, c := range []struct {
		ref, want string
		cands     []string // for an ambiguous ref
		err       any
	}{
		{ref: "tm-a1b2", want: "tm-a1b2"},                  // full
		{ref: "a1b2", want: "tm-a1b2"},                     // suffix
		{ref: "x9", want: "tm-x9zz"},                       // prefix of the suffix
		{ref: "tm-x", want: "tm-x9zz"},                     // prefix of the full id
		{ref: "TM-A1B2", want: "tm-a1b2"},                  // upper case
		{ref: "  b7K ", want: "tm-b7k2q"},                  // spaces
		{ref: "tm-tm", want: "tm-tm01"},                    // prefix that looks like the prefix
		{ref: "a1", cands: []string{"tm-a1b2", "tm-a1c3"}}, // ambiguous
		{ref: "tm-", err: &BadIDError{}},                   // names no task (it closed the only one)
		{ref: "tm", cands: []string{"tm-a1b2", "tm-a1c3", "tm-b7k2q", "tm-tm01", "tm-x9zz"}},
		{ref: "zz", err: &NotFoundError{}},
		{ref: "tm-a1b2x", err: &NotFoundError{}},
		{ref: "", err: &BadIDError{}},
		{ref: "../x", err: &BadIDError{}},
		{ref: "a/b", err: &BadIDError{}},
		{ref: "tm-a1b2.yaml", err: &BadIDError{}},
		{ref: "tm--a1", err: &BadIDError{}},
		{ref: "-a1", err: &BadIDError{}},
		{ref: "tm_a1", err: &BadIDError{}},
		{ref: "tm-a1 b2", err: &BadIDError{}},
	} {
		got, err := ResolveID(c.ref, ids)
		switch {
		case c.cands != nil:
			var ae *AmbiguousError
			if !errors.As(err, &ae) || !reflect.DeepEqual(ae.Candidates, sorted(c.cands)) {
				t.Errorf("%q: want ambiguous %v, got %q %v", c.ref, c.cands, got, err)
			} else if !strings.Contains(err.Error(), strings.Join(sorted(c.cands), ", ")) {
				t.Errorf("%q: message %q does not list the candidates", c.ref, err)
			}
		case c.err != nil:
			if reflect.TypeOf(err) != reflect.TypeOf(c.err) || got != "" {
				t.Errorf("%q: want %T, got %q %v", c.ref, c.err, got, err)
			}
		case err != nil || got != c.want:
			t.Errorf("%q: got %q %v, want %q", c.ref, got, err, c.want)
		}
	}
}

func sorted(ss []string) []string {
	out := append([]string(nil), ss...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestValidID(t *testing.T) {
	for id, ok := range map[string]bool{
		"tm-a1b2": true, "x-1": true, "abc": true,
		"": false, "TM-a1": false, "tm-a1/..": false, "..": false, "tm-a.b": false, "-a": false, "a--b": false, "a-b-c": false,
	} {
		if validID(id) != ok {
			t.Errorf("validID(%q) = %v", id, !ok)
		}
	}
}

func TestValidPrefix(t *testing.T) {
	for p, ok := range map[string]bool{
		"tm": true, "bh": true, "a": true, "x9": true, "abcdefghijklmnop": true,
		"": false, "9a": false, "Tm": false, "t-m": false, "abcdefghijklmnopq": false, "tm é": false, "té": false,
	} {
		if ValidPrefix(p) != ok {
			t.Errorf("ValidPrefix(%q) = %v", p, !ok)
		}
	}
}

func TestIDLengthGrows(t *testing.T) {
	for _, c := range []struct{ count, want int }{
		{0, 4}, {1, 4}, {1678, 4}, {1679, 5}, {60465, 5}, {60466, 6}, {2176782, 7},
	} {
		if got := idLength(c.count); got != c.want {
			t.Errorf("idLength(%d) = %d, want %d", c.count, got, c.want)
		}
	}
	// The promise behind it: at least 1000 free IDs for every taken one.
	for count := 0; count < 100000; count += 997 {
		n, space := idLength(count), 1
		for range n {
			space *= 36
		}
		if space < (count+1)*1000 {
			t.Fatalf("idLength(%d) = %d leaves %d ids", count, n, space)
		}
	}
}

func TestNewID(t *testing.T) {
	taken := map[string]bool{}
	for range 2000 {
		id, err := newID("bh", len(taken), func(id string) bool { return taken[id] })
		if err != nil {
			t.Fatal(err)
		}
		if taken[id] || !validID(id) || !strings.HasPrefix(id, "bh-") || len(id) < 3+idLength(len(taken)) {
			t.Fatalf("bad new id %q with %d taken", id, len(taken))
		}
		taken[id] = true
	}
	if idLength(len(taken)) != 5 {
		t.Fatalf("2000 ids should need 5 characters")
	}
}

func TestStoreResolve(t *testing.T) {
	s := newStore(t)
	for _, id := range []string{"tm-a1b2", "tm-a1c3", "tm-q7"} {
		writeFile(t, taskFile(s, id), "id: "+id+"\ntitle: x\ntype: code\npriority: P2\nstate: open\n")
	}
	for ref, want := range map[string]string{"tm-a1b2": "tm-a1b2", "A1C": "tm-a1c3", "q": "tm-q7", "tm-q7": "tm-q7"} {
		if got, err := s.Resolve(ref); err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v", ref, got, err)
		}
	}
	var ae *AmbiguousError
	if _, err := s.Resolve("a1"); !errors.As(err, &ae) || len(ae.Candidates) != 2 {
		t.Errorf("Resolve(a1): %v", err)
	}
	// A file beside the store must not be reachable by a crafted ref.
	writeFile(t, s.Dir+"/evil.yaml", "id: evil\n")
	for _, ref := range []string{"../evil", "../../etc/passwd", "tasks/../x"} {
		var be *BadIDError
		if _, err := s.Resolve(ref); !errors.As(err, &be) {
			t.Errorf("Resolve(%q): want BadIDError, got %v", ref, err)
		}
		if _, err := s.Get(ref); !errors.As(err, &be) {
			t.Errorf("Get(%q): want BadIDError, got %v", ref, err)
		}
		if _, err := s.Update(ref, func(*Task) error { return nil }); !errors.As(err, &be) {
			t.Errorf("Update(%q): want BadIDError, got %v", ref, err)
		}
	}
	if _, err := os.Stat(s.Dir + "/locks/../evil.lock"); err == nil {
		t.Error("a lock was taken outside locks/")
	}
}
