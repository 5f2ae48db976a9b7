package proc

import "fmt"

// CapWriter keeps the first max-tail bytes written to it and the last tail
// bytes, and counts the rest: a child that prints gigabytes must not
// exhaust bh's memory. It never fails a write.
type CapWriter struct {
	max, tail int
	head      []byte
	end       []byte // holds the last tail bytes, and at most tail more
	total     int64
}

// NewCapWriter keeps at most max bytes, tail of them from the end.
func NewCapWriter(max, tail int) *CapWriter { return &CapWriter{max: max, tail: tail} }

func (w *CapWriter) Write(p []byte) (int, error) {
	n := len(p)
	w.total += int64(n)
	if room := w.max - w.tail - len(w.head); room > 0 {
		k := min(room, len(p))
		w.head, p = append(w.head, p[:k]...), p[k:]
	}
	if len(p) >= w.tail {
		w.end = append(w.end[:0], p[len(p)-w.tail:]...)
	} else if w.end = append(w.end, p...); len(w.end) > 2*w.tail {
		w.end = append(w.end[:0], w.end[len(w.end)-w.tail:]...)
	}
	return n, nil
}

// Bytes returns what was kept, with a note where bytes were dropped.
func (w *CapWriter) Bytes() []byte {
	end := w.end
	if len(end) > w.tail {
		end = end[len(end)-w.tail:]
	}
	dropped := w.total - int64(len(w.head)) - int64(len(end))
	out := append([]byte(nil), w.head...)
	if dropped > 0 {
		out = fmt.Appendf(out, "\n… (bh dropped %d bytes of output here)\n", dropped)
	}
	return append(out, end...)
}
