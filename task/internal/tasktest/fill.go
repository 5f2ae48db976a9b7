// Package tasktest holds what the tests of task and task/store share.
package tasktest

import (
	"fmt"
	"reflect"
	"time"
)

// Fill sets every field reachable from v to a distinct non-zero value, so
// that a field the codec forgets cannot come back equal.
func Fill(v reflect.Value, n *int) {
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
		Fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		Fill(v.Index(0), n)
		Fill(v.Index(1), n)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			zones := []*time.Location{time.UTC, time.FixedZone("", 5*3600+1800), time.FixedZone("EST", -5*3600), time.Local}
			v.Set(reflect.ValueOf(time.Unix(int64(*n)*86400*7, int64(*n)).In(zones[*n%len(zones)])))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				Fill(v.Field(i), n)
			}
		}
	default:
		panic("fill: add a case for " + v.Kind().String())
	}
}
