package notify

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
)

// Diffstat is the change a gate asks about, read by bh's git from the
// snapshot the worker parked for it. The agent names the files: each
// channel escapes them.
type Diffstat struct {
	Files   []git.FileStat `json:"files"` // the first ones, within maxFiles and maxNames
	Changed int            `json:"filesChanged"`
	Added   int            `json:"added"`
	Removed int            `json:"removed"`
	// Since is what changed from the previous gate's snapshot to this one,
	// when a gate is asked again after a rejection.
	Since *Diffstat `json:"since,omitempty"`
}

// maxFiles and maxNames (bytes of their names) bound the files an event
// carries; a text shows maxShown.
const (
	maxFiles = 100
	maxNames = 16 << 10
	maxShown = 10
)

// gateChange is the change t's waiting gate holds (the work parked under
// its ref, against the commit it builds on) and, asked again, what
// changed since the previous gate's snapshot. nil when there is none or
// git cannot tell.
func gateChange(root string, t *task.Task) *Diffstat {
	p, err := git.FindParked(root, t.ID)
	if err != nil || p.Commit == "" {
		return nil
	}
	d := diffstat(p.Repo, p.Base, p.Commit)
	if d == nil {
		return nil
	}
	if prev := previousGate(t, p.Commit); prev != "" {
		d.Since = diffstat(p.Repo, prev, p.Commit)
	}
	return d
}

func diffstat(r *git.Repo, from, to string) *Diffstat {
	files, err := r.NumStat(from, to)
	if err != nil {
		return nil
	}
	d := &Diffstat{Changed: len(files), Files: []git.FileStat{}}
	size := 0 // the files' names bounded too: BH_EVENT_JSON is one environment string
	for _, f := range files {
		d.Added, d.Removed = d.Added+f.Added, d.Removed+f.Removed
		if size += len(f.Path); len(d.Files) < maxFiles && size <= maxNames {
			d.Files = append(d.Files, f)
		}
	}
	return d
}

// previousGate is the snapshot parked with the gate asked before the one
// whose snapshot is now: the worker records a gate's input.requested and
// then the parked event that kept its work.
func previousGate(t *task.Task, now string) string {
	gates := map[string]bool{}
	for _, q := range t.Questions {
		gates[q.ID] = q.Gate
	}
	var snaps []string
	asked := false
	for _, ev := range t.History {
		switch {
		case ev.Kind == task.EventInputRequested:
			asked = gates[ev.QuestionID]
		case ev.Kind == task.EventParked && asked && ev.Commit != "":
			snaps, asked = append(snaps, ev.Commit), false
		}
	}
	for i := len(snaps) - 1; i >= 0; i-- {
		if snaps[i] != now {
			return snaps[i]
		}
	}
	return ""
}

// statLines are d as git diff --stat words it, at most limit files: a
// line per file, then the totals.
func statLines(d *Diffstat, limit int) []string {
	var out []string
	for i, f := range d.Files {
		if i == limit {
			break
		}
		n := strconv.Itoa(f.Added+f.Removed) + " +" + strconv.Itoa(f.Added) + " -" + strconv.Itoa(f.Removed)
		if f.Binary {
			n = "Bin"
		}
		out = append(out, " "+shownPath(f.Path)+" | "+n)
	}
	if more := d.Changed - min(limit, len(d.Files)); more > 0 {
		out = append(out, fmt.Sprintf(" and %d more", more))
	}
	plural := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.Itoa(n) + " " + many
	}
	return append(out, fmt.Sprintf(" %s, %s(+), %s(-)", plural(d.Changed, "file changed", "files changed"),
		plural(d.Added, "insertion", "insertions"), plural(d.Removed, "deletion", "deletions")))
}

// changeLines are d as people read it: the diffstat, and what changed
// since the last round, limit files each.
func changeLines(d *Diffstat, limit int) []string {
	if d == nil {
		return nil
	}
	out := statLines(d, limit)
	switch {
	case d.Since != nil && d.Since.Changed == 0:
		out = append(out, "Nothing changed since the last round.")
	case d.Since != nil:
		out = append(out, "Changed since the last round:")
		out = append(out, statLines(d.Since, limit)...)
	}
	return out
}

// shownPath is a file name the agent chose, on one printable line of
// bounded length: quoted as Go quotes when it holds anything else.
func shownPath(p string) string {
	if !utf8.ValidString(p) || strings.IndexFunc(p, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		p = strconv.Quote(p)
	}
	if r := []rune(p); len(r) > 120 {
		p = "…" + string(r[len(r)-119:])
	}
	return p
}
