package board

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
)

// changeFile is a file of the change shown, under a header of its own
// (its path, lines added and deleted), folded to that header or not.
type changeFile struct {
	git.FileDiff
	folded bool
}

// openChange shows t's change: the work parked for its review, a header
// per file; generated and long files start folded (f unfolds one).
func (m *boardModel) openChange(t *task.Task) {
	p, err := git.FindParked(m.s.Root, t.ID)
	if err == nil && p.Commit == "" {
		err = errors.New(t.ID + " has no change to show")
	}
	var d string
	if err == nil {
		d, err = p.Diff(false)
	}
	if err != nil {
		m.say(err.Error(), true)
		return
	}
	files, cut := git.DiffFiles(d)
	if len(files) == 0 {
		m.say(t.ID+"'s change is empty", true)
		return
	}
	bt := &boardText{t: t, cut: cut}
	for _, f := range files {
		bt.files = append(bt.files, changeFile{f, f.Folded()})
	}
	bt.layout()
	m.opened[t.ID], m.text = true, bt
}

// layout lays the change's files out as lines: each file's header, then,
// unless it is folded, its hunks (git's own header lines left out: the
// header says them).
func (bt *boardText) layout() {
	bt.lines = nil
	for i, f := range bt.files {
		bt.lines = append(bt.lines, textLine{text: header(f), class: "file", file: i + 1})
		if f.folded {
			continue
		}
		head := true // before the file's first hunk
		for _, l := range f.Lines {
			head = head && l.Class != "hunk"
			if head && gitHeader(l.Text) {
				continue
			}
			bt.lines = append(bt.lines, textLine{l.Text, l.Class, f.Name, l.Line, i + 1})
		}
	}
	if bt.cut {
		bt.lines = append(bt.lines, textLine{text: "… the change is cut here: bh diff " + bt.t.ID + " shows all of it", class: "meta"})
	}
	bt.at = min(bt.at, len(bt.lines)-1)
}

// header is a file's header line: "▾ docs/café.md  +3 −1", whether it
// is new or deleted, and why it is folded when it is.
func header(f changeFile) string {
	h := fmt.Sprintf("▾ %s  +%d −%d", f.Name, f.Add, f.Del)
	for _, l := range f.Lines {
		if l.Class == "hunk" {
			break
		}
		if strings.HasPrefix(l.Text, "new file mode ") {
			h += "  · new"
		} else if strings.HasPrefix(l.Text, "deleted file mode ") {
			h += "  · deleted"
		}
	}
	if !f.folded {
		return h
	}
	why := ""
	switch {
	case f.Generated():
		why = " (generated)"
	case !f.Short():
		why = fmt.Sprintf(" (%d lines changed)", f.Add+f.Del)
	}
	return "▸" + strings.TrimPrefix(h, "▾") + "  · folded" + why + ": f unfolds it"
}

// gitHeader says whether a line of a file's diff, before its first hunk,
// is one git writes for every file (what the file header says).
func gitHeader(l string) bool {
	for _, p := range []string{"diff --git ", "index ", "--- ", "+++ ", "new file mode ", "deleted file mode "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// foldKey acts on a key of the change's files: f folds or unfolds the
// file under the cursor, ] and [ go to the next and the previous file. A
// run's text has no files.
func (bt *boardText) foldKey(k string) {
	file := bt.lines[bt.at].file
	switch k {
	case "f":
		if file == 0 { // a run's line, or the change's last
			return
		}
		bt.files[file-1].folded = !bt.files[file-1].folded
		bt.layout()
		bt.at = bt.headerOf(file)
	case "]":
		if next := bt.headerOf(file + 1); next >= 0 {
			bt.at = next
		}
	case "[":
		to := file - 1
		switch {
		case file == 0: // past the files: the last one
			to = len(bt.files)
		case bt.headerOf(file) < bt.at: // inside a file: its own header first
			to = file
		}
		if prev := bt.headerOf(to); prev >= 0 {
			bt.at = prev
		}
	}
}

// headerOf is the line of file's header (1 the first), -1 if none.
func (bt *boardText) headerOf(file int) int {
	for i, l := range bt.lines {
		if l.file == file && l.class == "file" {
			return i
		}
	}
	return -1
}
