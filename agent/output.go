package agent

import "fmt"

// Limits on the output kept from one agent run: an agent that prints
// gigabytes must not exhaust the worker's memory. Past the limit the middle
// is dropped. The result object comes at the end of stdout and may be large
// (a 5 MB one is valid), so stdout keeps its first OutputHeadBytes for
// diagnosis and the rest of MaxOutputBytes from its end; stderr, read only
// by people, keeps MaxStderrBytes, mostly from its end as well.
const (
	MaxOutputBytes  = 16 << 20
	OutputHeadBytes = 64 << 10
	OutputTailBytes = MaxOutputBytes - OutputHeadBytes
	MaxStderrBytes  = 1 << 20
	StderrTailBytes = 64 << 10
)

// capWriter keeps the first max-tail bytes written to it and the last tail
// bytes, and counts the rest.
type capWriter struct {
	max, tail int
	head      []byte
	end       []byte // holds the last tail bytes, and at most tail more
	total     int64
}

func newCapWriter(max, tail int) *capWriter { return &capWriter{max: max, tail: tail} }

func (w *capWriter) Write(p []byte) (int, error) {
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
func (w *capWriter) Bytes() []byte {
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
