package task

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
)

// decodeFast is Decode for a file in the subset parseYAML reads, with every
// key one of bh's and every value valid. ok is false for anything else, and
// Decode then reads the file with yaml.v3, which gives the same task or the
// error with its line. TestDecodeFastCoversTask checks it reads every field.
func decodeFast(b []byte, id string) (*Task, bool) {
	root, done, ok := parseYAML(string(b))
	defer done()
	if !ok {
		return nil, false
	}
	t := &Task{}
	if !fill(&root, reflect.ValueOf(t).Elem()) {
		return nil, false
	}
	if _, msg := t.checkID(id); msg != "" {
		return nil, false
	}
	if _, _, err := t.normalize(); err != nil {
		return nil, false
	}
	return t, true
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	durationType = reflect.TypeFor[time.Duration]()
)

// fastFields are the fields of Task and of the structs in it, by type and
// YAML key; found on first use, which most commands (a listing from the
// cache) never make.
var fastFields = sync.OnceValue(func() map[reflect.Type]map[string]int {
	out := map[reflect.Type]map[string]int{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Slice || t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t == timeType || out[t] != nil {
			return
		}
		out[t] = map[string]int{}
		for i := range t.NumField() {
			if name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); name != "" && name != "-" {
				out[t][name] = i
				walk(t.Field(i).Type)
			}
		}
	}
	walk(reflect.TypeFor[Task]())
	return out
})

// fill sets rv from v, as yaml.v3 would, or reports false for a value
// written otherwise than bh writes it.
func fill(v *ynode, rv reflect.Value) bool {
	switch rv.Type() {
	case timeType:
		return timeVal(v, rv.Addr().Interface().(*time.Time))
	case durationType: // as yaml.v3 writes a duration: "2.5ms"
		d, err := time.ParseDuration(v.val)
		rv.SetInt(int64(d))
		return v.plain && err == nil
	}
	switch rv.Kind() {
	case reflect.String:
		rv.SetString(v.val)
		return v.kind == 's'
	case reflect.Bool:
		rv.SetBool(v.val == "true")
		return v.plain && (v.val == "true" || v.val == "false")
	case reflect.Int, reflect.Int64, reflect.Float64:
		return v.plain && fillNumber(v.val, rv)
	case reflect.Pointer:
		rv.Set(reflect.New(rv.Type().Elem()))
		return fill(v, rv.Elem())
	case reflect.Slice:
		return fillList(v, rv)
	case reflect.Struct:
		return fillStruct(v, rv)
	}
	return false
}

// fillNumber sets rv from a number written as bh (yaml.v3) writes it: a
// plain decimal integer, or a finite float in Go's shortest form.
func fillNumber(val string, rv reflect.Value) bool {
	if rv.Kind() == reflect.Float64 {
		f, err := strconv.ParseFloat(val, 64)
		rv.SetFloat(f)
		return err == nil && val == strconv.FormatFloat(f, 'g', -1, 64)
	}
	n, err := strconv.ParseInt(val, 10, 64)
	rv.SetInt(n)
	return err == nil && val == strconv.FormatInt(n, 10)
}

func fillList(v *ynode, rv reflect.Value) bool {
	if v.kind != 'q' {
		return false
	}
	rv.Set(reflect.MakeSlice(rv.Type(), len(v.kids), len(v.kids)))
	for i := range v.kids {
		if !fill(&v.kids[i], rv.Index(i)) {
			return false
		}
	}
	return true
}

// fillStruct sets the fields of rv from the mapping v: bh's keys only.
func fillStruct(v *ynode, rv reflect.Value) bool {
	if v.kind != 'm' {
		return false
	}
	keys := fastFields()[rv.Type()]
	for i := 0; i+1 < len(v.kids); i += 2 {
		f, ok := keys[v.kids[i].val]
		if !ok || !fill(&v.kids[i+1], rv.Field(f)) {
			return false
		}
	}
	return true
}

// timeVal reads a time as bh writes it: RFC 3339 in UTC, plain. yaml.v3
// parses those with time.Parse too, so the two give the same value.
func timeVal(v *ynode, p *time.Time) bool {
	if !v.plain || !strings.HasSuffix(v.val, "Z") || strings.IndexByte(v.val, 'T') != 10 {
		return false
	}
	t, err := time.Parse(time.RFC3339Nano, v.val)
	*p = t
	return err == nil
}
