package ui

import (
	"testing"
	"time"
)

func TestRelTime(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		ago  time.Duration
		want string
	}{
		{-time.Hour, "just now"}, // a clock ahead of ours
		{0, "just now"},
		{59 * time.Second, "just now"},
		{time.Minute, "1 minute ago"},
		{90 * time.Second, "1 minute ago"},
		{59 * time.Minute, "59 minutes ago"},
		{time.Hour, "1 hour ago"},
		{2*time.Hour + 59*time.Minute, "2 hours ago"},
		{23 * time.Hour, "23 hours ago"},
		{24 * time.Hour, "1 day ago"},
		{29 * 24 * time.Hour, "29 days ago"},
		{30 * 24 * time.Hour, "1 month ago"},
		{200 * 24 * time.Hour, "6 months ago"},
		{365 * 24 * time.Hour, "1 year ago"},
		{3 * 365 * 24 * time.Hour, "3 years ago"},
	} {
		if got := RelTime(now, now.Add(-tc.ago)); got != tc.want {
			t.Errorf("RelTime(now-%v) = %q, want %q", tc.ago, got, tc.want)
		}
	}
}
