package ui

import (
	"fmt"
	"time"
)

// RelTime says how long before now t was, in words: "2 hours ago".
// A time in the future (a skewed clock) reads as "just now".
func RelTime(now, t time.Time) string {
	d := now.Sub(t)
	const day = 24 * time.Hour
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return ago(int(d/time.Minute), "minute")
	case d < day:
		return ago(int(d/time.Hour), "hour")
	case d < 30*day:
		return ago(int(d/day), "day")
	case d < 365*day:
		return ago(int(d/(30*day)), "month")
	}
	return ago(int(d/(365*day)), "year")
}

func ago(n int, unit string) string { return Plural(n, unit) + " ago" }

// Plural is n of noun in words: "1 task", "2 tasks".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
