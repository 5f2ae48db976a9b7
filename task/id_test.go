package task

import (
	"errors"
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
		if ValidID(id) != ok {
			t.Errorf("ValidID(%q) = %v", id, !ok)
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
		id, err := NewID("bh", len(taken), func(id string) bool { return taken[id] })
		if err != nil {
			t.Fatal(err)
		}
		if taken[id] || !ValidID(id) || !strings.HasPrefix(id, "bh-") || len(id) < 3+idLength(len(taken)) {
			t.Fatalf("bad new id %q with %d taken", id, len(taken))
		}
		taken[id] = true
	}
	if idLength(len(taken)) != 5 {
		t.Fatalf("2000 ids should need 5 characters")
	}
}

// A collision lengthens the next ID: the count it was sized for was
// behind the store.
func TestNewIDGrowsOnCollision(t *testing.T) {
	tries := 0
	id, err := NewID("bh", 0, func(id string) bool {
		tries++
		return len(id) < 3+6 // every 4- and 5-character ID is taken
	})
	if err != nil || len(id) != 3+6 || tries != 3 {
		t.Fatalf("got %q, %v after %d tries; want a 6-character id on the third", id, err, tries)
	}
}
