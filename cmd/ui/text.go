package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/mattn/go-runewidth"
)

// CutWords shortens s to n columns, ending in "…" after the last whole word
// that fits; a first word too long for n is cut at the column.
func CutWords(s string, n int) string {
	if width(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	out := ""
	for _, w := range strings.Fields(s) {
		next := w
		if out != "" {
			next = out + " " + w
		}
		if width(strings.TrimRight(next, ",;:.-–—"))+1 > n {
			break
		}
		out = next
	}
	if out = strings.TrimRight(out, ",;:.-–—"); out == "" {
		return runewidth.Truncate(s, n, "…")
	}
	return out + "…"
}

// Flatten makes text fit one tab-separated field.
func Flatten(s string) string {
	if flat(s) {
		return s // most titles: spared a split and a join per row
	}
	return strings.Join(strings.Fields(s), " ")
}

// flat reports whether s is already as Flatten makes it: ASCII words
// between single spaces.
func flat(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || c < ' ' || c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' ') {
			return false
		}
	}
	return true
}

// tabStop is where bh's terminal output puts tab stops: every 4 columns.
const tabStop = 4

// ExpandTabs replaces each tab with the spaces up to the next tab stop, so
// that code keeps its indentation wherever its lines end up.
func ExpandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := tabStop - col%tabStop
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col += runewidth.RuneWidth(r)
		}
	}
	return b.String()
}

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

// NextRun says when a scheduled task runs, in the local time: "Mon 9 Dec
// 09:00".
func NextRun(at time.Time) string { return at.Local().Format("Mon 2 Jan 15:04") }

// ScheduleTag says when a recurring or scheduled task runs next at now
// ("next: Mon 9 Dec 09:00"), or its schedule ("every 1w") when it may run
// now; "" for a task with neither.
func ScheduleTag(t *task.Task, now time.Time) string {
	if n := NextText(t, now); n != "" {
		return "next: " + n
	}
	if t.Every != "" {
		return "every " + t.Every
	}
	return ""
}

// NextText is when t, open, runs next, if that is still ahead at now.
func NextText(t *task.Task, now time.Time) string {
	if t.State != task.Open || !t.Waits(now) {
		return ""
	}
	return NextRun(*t.NotBefore)
}
