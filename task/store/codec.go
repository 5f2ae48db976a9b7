package store

import (
	"encoding/binary"
	"math"
	"time"
)

// The list cache stores tasks in a small binary form of its own: decoding
// it is copying, where YAML or gob would spend most of bh list's budget.
// enc appends values; dec reads them back from a string, so that decoded
// strings are substrings of the cache file and cost no allocation.

type enc struct{ b []byte }

func (e *enc) uint(v uint64)   { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) int(v int64)     { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) str(s string)    { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) float(v float64) { e.uint(math.Float64bits(v)) }

func (e *enc) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// count writes a slice length so that nil and empty stay apart.
func (e *enc) count(n int, isNil bool) {
	if isNil {
		e.uint(0)
	} else {
		e.uint(uint64(n) + 1)
	}
}

func (e *enc) strs(ss []string) {
	e.count(len(ss), ss == nil)
	for _, s := range ss {
		e.str(s)
	}
}

// Time zones: YAML gives UTC, Local, or a fixed offset; each comes back as
// the same kind, so a cached task equals a freshly parsed one.
const (
	zoneUTC = iota
	zoneLocal
	zoneFixed
)

func (e *enc) time(t time.Time) {
	switch loc := t.Location(); loc {
	case time.UTC:
		e.b = append(e.b, zoneUTC)
	default:
		kind := byte(zoneFixed)
		if loc == time.Local {
			kind = zoneLocal
		}
		name, off := t.Zone()
		e.b = append(e.b, kind)
		e.str(name)
		e.int(int64(off))
	}
	e.int(t.Unix())
	e.uint(uint64(t.Nanosecond()))
}

func (e *enc) timePtr(t *time.Time) {
	e.bool(t != nil)
	if t != nil {
		e.time(*t)
	}
}

type dec struct {
	s   string
	i   int
	bad bool // set on any overrun; the caller checks it once at the end
}

func (d *dec) uint() uint64 {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if d.i >= len(d.s) {
			break
		}
		c := d.s[d.i]
		d.i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	d.bad = true
	return 0
}

func (d *dec) int() int64 {
	u := d.uint()
	return int64(u>>1) ^ -int64(u&1)
}

func (d *dec) byte() byte {
	if d.i >= len(d.s) {
		d.bad = true
		return 0
	}
	d.i++
	return d.s[d.i-1]
}

func (d *dec) bool() bool { return d.byte() == 1 }

func (d *dec) float() float64 { return math.Float64frombits(d.uint()) }

func (d *dec) str() string {
	n := d.uint()
	if n > uint64(len(d.s)-d.i) {
		d.bad = true
		return ""
	}
	s := d.s[d.i : d.i+int(n)]
	d.i += int(n)
	return s
}

// count reads a slice length. Every element takes at least one byte, so a
// corrupt length cannot make us allocate more than the input's size.
func (d *dec) count() (n int, isNil bool) {
	u := d.uint()
	if u == 0 {
		return 0, true
	}
	if u-1 > uint64(len(d.s)-d.i) {
		d.bad = true
		return 0, false
	}
	return int(u - 1), false
}

func (d *dec) strs() []string {
	n, isNil := d.count()
	if isNil {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = d.str()
	}
	return ss
}

func (d *dec) time() time.Time {
	kind := d.byte()
	var name string
	var off int
	if kind != zoneUTC {
		name, off = d.str(), int(d.int())
	}
	sec, nsec := d.int(), d.uint()
	if nsec >= 1e9 {
		d.bad = true
		return time.Time{}
	}
	t := time.Unix(sec, int64(nsec))
	switch kind {
	case zoneUTC:
		return t.UTC()
	case zoneLocal:
		// As time.Parse does: Local when the offset still fits it.
		if _, o := t.Zone(); o == off {
			return t
		}
	case zoneFixed:
	default:
		d.bad = true
	}
	return t.In(time.FixedZone(name, off))
}

func (d *dec) timePtr() *time.Time {
	if !d.bool() {
		return nil
	}
	t := d.time()
	return &t
}
