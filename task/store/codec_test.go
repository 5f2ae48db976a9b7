package store

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/internal/tasktest"
)

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
	tasktest.Fill(reflect.ValueOf(&full).Elem(), &n)
	cacheRoundTrip(t, &full)
	cacheRoundTrip(t, &task.Task{})
	cacheRoundTrip(t, &task.Task{Labels: []string{}, Questions: []task.Question{{Options: []task.Option{}}}, History: []task.Event{}})
	cacheRoundTrip(t, tasktest.GenTask(1, 10))
	asked := tasktest.GenTask(1, 10)
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
