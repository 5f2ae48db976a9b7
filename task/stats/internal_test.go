package stats

import "testing"

func TestChannel(t *testing.T) {
	for by, want := range map[string]string{"human": "cli", "board": "board", "web:ann": "web", "link": "link",
		"ntfy": "ntfy", "slack": "slack", "continue:ann": "takeover", "worker-1": "other"} {
		if got := channel(by); got != want {
			t.Errorf("channel(%q) = %q, want %q", by, got, want)
		}
	}
}

func TestQuantiles(t *testing.T) {
	for _, c := range []struct {
		v        []float64
		p50, p90 float64
	}{{[]float64{7}, 7, 7}, {[]float64{4, 1, 3, 2}, 2, 4}, {[]float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 5, 9},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 6, 10}} {
		if q := quantiles(c.v); q.P50 != c.p50 || q.P90 != c.p90 || q.Count != len(c.v) {
			t.Errorf("quantiles(%v) = %+v, want p50 %v, p90 %v", c.v, q, c.p50, c.p90)
		}
	}
}
