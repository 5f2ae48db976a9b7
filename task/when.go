package task

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ShortDur writes a duration the way people say it: 45s, 12m, 2h, 3d.
// The terminal and the web inbox both say times this way.
func ShortDur(d time.Duration) string {
	const day = 24 * time.Hour
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < day:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/day))
}

// ExpiryText says when a question expires: "expires in 3h", "expired 5m ago".
func ExpiryText(now, at time.Time) string {
	if at.After(now) {
		return "expires in " + ShortDur(at.Sub(now))
	}
	return "expired " + ShortDur(now.Sub(at)) + " ago"
}

// ParseDur reads a duration as Go does, with days ("2d") besides: the
// --since of bh log and bh stats.
func ParseDur(v string) (time.Duration, error) {
	var d time.Duration
	var err error
	if n, ok := strings.CutSuffix(v, "d"); ok {
		var days int
		days, err = strconv.Atoi(n)
		d = time.Duration(days) * 24 * time.Hour
	} else {
		d, err = time.ParseDuration(v)
	}
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a duration such as 90m, 36h or 2d", v)
	}
	return d, nil
}
