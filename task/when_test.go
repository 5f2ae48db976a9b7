package task

import (
	"testing"
	"time"
)

func TestExpiryText(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{now.Add(3*time.Hour + 20*time.Minute), "expires in 3h"},
		{now.Add(59 * time.Second), "expires in 59s"},
		{now.Add(50 * time.Hour), "expires in 2d"},
		{now.Add(-5 * time.Minute), "expired 5m ago"},
		{now, "expired 0s ago"},
	} {
		if got := ExpiryText(now, tc.at); got != tc.want {
			t.Errorf("ExpiryText(%v) = %q, want %q", tc.at.Sub(now), got, tc.want)
		}
	}
}

func TestParseDur(t *testing.T) {
	for in, want := range map[string]time.Duration{"90m": 90 * time.Minute, "36h": 36 * time.Hour, "2d": 48 * time.Hour, "1h30m": 90 * time.Minute} {
		if got, err := ParseDur(in); err != nil || got != want {
			t.Errorf("ParseDur(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "soon", "-1h", "0s", "2w", "d"} {
		if _, err := ParseDur(in); err == nil {
			t.Errorf("ParseDur(%q) accepted", in)
		}
	}
}
