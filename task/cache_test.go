package task

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fill sets every field reachable from v to a distinct non-zero value, so
// that a field the codec forgets cannot come back equal.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprint("s", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n * 1000003))
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), n)
		fill(v.Index(1), n)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			zones := []*time.Location{time.UTC, time.FixedZone("", 5*3600+1800), time.FixedZone("EST", -5*3600), time.Local}
			v.Set(reflect.ValueOf(time.Unix(int64(*n)*86400*7, int64(*n)).In(zones[*n%len(zones)])))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	default:
		panic("fill: add a case for " + v.Kind().String())
	}
}

func cacheRoundTrip(t *testing.T, in *Task) {
	t.Helper()
	var e enc
	encodeTask(&e, in)
	var out Task
	if !decodeTask(&dec{s: string(e.b)}, &out, false) {
		t.Fatal("record does not decode")
	}
	if !reflect.DeepEqual(in, &out) {
		t.Fatalf("cache codec changed the task:\n%#v\n%#v", in, &out)
	}
	var brief Task
	want := *in
	want.trim()
	if !decodeTask(&dec{s: string(e.b)}, &brief, true) || !reflect.DeepEqual(&brief, &want) {
		t.Fatalf("brief decoding:\n%#v\nwant\n%#v", &brief, &want)
	}
	// Any cut of the record is refused, never a panic.
	for n := range len(e.b) {
		var cut Task
		if decodeTask(&dec{s: string(e.b[:n])}, &cut, false) {
			t.Fatalf("a record cut to %d of %d bytes decoded", n, len(e.b))
		}
	}
}

func TestCacheCodecCoversTask(t *testing.T) {
	var full Task
	n := 0
	fill(reflect.ValueOf(&full).Elem(), &n)
	cacheRoundTrip(t, &full)
	cacheRoundTrip(t, &Task{})
	cacheRoundTrip(t, &Task{Labels: []string{}, Questions: []Question{{Options: []Option{}}}, History: []Event{}})
	cacheRoundTrip(t, genTask(1, 10))
	asked := genTask(1, 10)
	asked.Record(time.Now(), Event{Kind: EventState})
	cacheRoundTrip(t, asked) // the question is not the last event
}

// layoutOf describes a type's shape: what the codec must follow.
func layoutOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + layoutOf(t.Elem())
	case reflect.Slice:
		return "[]" + layoutOf(t.Elem())
	case reflect.Struct:
		if t == reflect.TypeFor[time.Time]() {
			return "time"
		}
		var b strings.Builder
		b.WriteString("{")
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() { // what files and caches hold
				fmt.Fprintf(&b, "%s %s;", f.Name, layoutOf(f.Type))
			}
		}
		return b.String() + "}"
	}
	return t.Kind().String()
}

func TestCacheLayout(t *testing.T) {
	h := fnv.New64a()
	h.Write([]byte(layoutOf(reflect.TypeFor[Task]())))
	if got := h.Sum64(); got != cacheLayout {
		t.Fatalf("Task changed shape: update encodeTask and decodeTask, then set cacheLayout = %#x", got)
	}
}

// direct reads every task file without the cache: what List must equal.
func direct(t *testing.T, s *Store) []*Task {
	t.Helper()
	ids, err := s.IDs()
	if err != nil {
		t.Fatal(err)
	}
	var out []*Task
	for _, id := range ids {
		if tk, err := s.Get(id); err == nil {
			out = append(out, tk)
		}
	}
	return out
}

// listed lists s and checks the listing against the files themselves.
func listed(t *testing.T, s *Store, wantParsed int, wantBad int) listReport {
	t.Helper()
	tasks, bad, r, err := s.list(false)
	if err != nil {
		t.Fatal(err)
	}
	if want := direct(t, s); !reflect.DeepEqual(tasks, want) {
		t.Fatalf("list (%+v) differs from the files: %d tasks, want %d", r, len(tasks), len(want))
	}
	if r.parsed != wantParsed || len(bad) != wantBad {
		t.Fatalf("parsed %d files, %d bad (%v); want %d, %d", r.parsed, len(bad), bad, wantParsed, wantBad)
	}
	return r
}

func TestListCache(t *testing.T) {
	// Steps below rely on a file staying unsettled from one list to the
	// next: give them room on a busy machine, or under -race.
	defer func(d time.Duration) { racySlack = d }(racySlack)
	racySlack = 600 * time.Millisecond
	s := newStore(t)
	writeStore(t, s, 40) // the cache is rewritten once more than 8 files are stale
	settle()
	if r := listed(t, s, 40, 0); !r.saved {
		t.Fatalf("cold list: %+v", r)
	}
	if r := listed(t, s, 0, 0); r.saved {
		t.Fatalf("warm list: %+v", r)
	}

	// An in-place edit of the same size with the old mtime put back: only
	// ctime tells, and the file is read until the cache is rewritten.
	p := s.Path(genID(3))
	fi, _ := os.Stat(p)
	writeFile(t, p, strings.Replace(string(readFile(t, p)), "Task 3:", "Task X:", 1))
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	for range 2 {
		if r := listed(t, s, 1, 0); r.saved {
			t.Fatalf("after an in-place edit: %+v", r)
		}
	}

	// Deleted, added, and a file that stops parsing: few, so read each time.
	os.Remove(s.Path(genID(5)))
	writeStoreFrom(t, s, 40, 42)
	writeFile(t, s.Path(genID(7)), "id: "+genID(7)+"\ntitle: [\n")
	if r := listed(t, s, 4, 1); r.saved {
		t.Fatalf("after a few files came and went: %+v", r)
	}

	// Past the threshold the cache is rewritten, but files younger than
	// racySlack are still read until they settle.
	writeStoreFrom(t, s, 42, 50)
	if r := listed(t, s, 12, 1); !r.saved {
		t.Fatalf("after many new files: %+v", r)
	}
	if r := listed(t, s, 12, 1); r.saved {
		t.Fatalf("unsettled files: %+v", r)
	}
	settle()
	if r := listed(t, s, 12, 1); !r.saved {
		t.Fatalf("settled files were not saved: %+v", r)
	}
	if r := listed(t, s, 1, 1); r.saved {
		t.Fatalf("only the bad file should be read: %+v", r)
	}
}

func writeStoreFrom(t *testing.T, s *Store, from, to int) {
	for i := from; i < to; i++ {
		b, _ := Encode(genTask(i, to))
		writeFile(t, s.Path(genID(i)), string(b))
	}
}

func TestListCacheDamaged(t *testing.T) {
	s := newStore(t)
	writeStore(t, s, 30)
	settle()
	listed(t, s, 30, 0)
	good := readFile(t, s.cachePath())
	for name, damage := range map[string]func([]byte) []byte{
		"flipped byte": func(b []byte) []byte { b[len(b)/2] ^= 0x40; return b },
		"truncated":    func(b []byte) []byte { return b[:len(b)-7] },
		"header only":  func(b []byte) []byte { return b[:cacheHeader] },
		"empty":        func([]byte) []byte { return nil },
		"other layout": func(b []byte) []byte { b[9]++; return b },
		"other format": func(b []byte) []byte { b[7] = '0'; return b },
		"garbage":      func([]byte) []byte { return []byte(strings.Repeat("not a cache ", 100)) },
	} {
		t.Run(name, func(t *testing.T) {
			writeFile(t, s.cachePath(), string(damage(append([]byte(nil), good...))))
			if r := listed(t, s, 30, 0); !r.saved {
				t.Fatalf("damaged cache was not rebuilt: %+v", r)
			}
			listed(t, s, 0, 0)
		})
	}
	// A cache whose records are wrong although its checksum holds.
	c := loadCache(s.cachePath())
	c.entries[4].rec = c.entries[4].rec[:10]
	if err := c.save(s.cachePath()); err != nil {
		t.Fatal(err)
	}
	if r := listed(t, s, 1, 0); !r.saved {
		t.Fatalf("bad record was not repaired: %+v", r)
	}
	listed(t, s, 0, 0)
}

func TestListWithoutCacheFolder(t *testing.T) {
	s := newStore(t)
	writeStore(t, s, 5)
	// A cache that cannot be written leaves List working.
	os.RemoveAll(s.Dir + "/cache")
	writeFile(t, s.Dir+"/cache", "a file where the folder should be")
	tasks, bad, err := s.List()
	if err != nil || len(tasks) != 5 || len(bad) != 0 {
		t.Fatalf("%d tasks, %v, %v", len(tasks), bad, err)
	}
}

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
			want.trim()
			if !reflect.DeepEqual(b, &want) {
				t.Fatalf("%s: brief %s:\n%#v\nwant\n%#v", when, b.ID, b, &want)
			}
			if e, ok := b.LastAsked(); ok {
				asked++
				if w, _ := full[i].LastAsked(); e != w {
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
