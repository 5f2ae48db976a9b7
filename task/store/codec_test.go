package store

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
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

func cacheRoundTrip(t *testing.T, in *task.Task) {
	t.Helper()
	var e enc
	encodeTask(&e, in)
	var out task.Task
	if !decodeTask(&dec{s: string(e.b)}, &out, false) {
		t.Fatal("record does not decode")
	}
	if !reflect.DeepEqual(in, &out) {
		t.Fatalf("cache codec changed the task:\n%#v\n%#v", in, &out)
	}
	var brief task.Task
	want := *in
	trim(&want)
	if !decodeTask(&dec{s: string(e.b)}, &brief, true) || !reflect.DeepEqual(&brief, &want) {
		t.Fatalf("brief decoding:\n%#v\nwant\n%#v", &brief, &want)
	}
	// Any cut of the record is refused, never a panic.
	for n := range len(e.b) {
		var cut task.Task
		if decodeTask(&dec{s: string(e.b[:n])}, &cut, false) {
			t.Fatalf("a record cut to %d of %d bytes decoded", n, len(e.b))
		}
	}
}

func TestCacheCodecCoversTask(t *testing.T) {
	var full task.Task
	n := 0
	fill(reflect.ValueOf(&full).Elem(), &n)
	cacheRoundTrip(t, &full)
	cacheRoundTrip(t, &task.Task{})
	cacheRoundTrip(t, &task.Task{Labels: []string{}, Questions: []task.Question{{Options: []task.Option{}}}, History: []task.Event{}})
	cacheRoundTrip(t, genTask(1, 10))
	asked := genTask(1, 10)
	asked.Record(time.Now(), task.Event{Kind: task.EventState})
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
	h.Write([]byte(layoutOf(reflect.TypeFor[task.Task]())))
	if got := h.Sum64(); got != cacheLayout {
		t.Fatalf("Task changed shape: update encodeTask and decodeTask, then set cacheLayout = %#x", got)
	}
}
