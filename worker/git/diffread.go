package git

import (
	"strconv"
	"strings"
)

// DiffLine is one line of a diff, with its class for colour (meta, hunk,
// add, del, ctx) and its number in the new file (0 for a deleted or a
// header line), for comments on lines.
type DiffLine struct {
	Class, Text string
	Line        int
}

// FileDiff is one file's part of a diff, with its lines added and deleted.
type FileDiff struct {
	Name     string
	Add, Del int
	Lines    []DiffLine
}

// maxDiff bounds the diff read for the web page and the board; bh diff
// has the rest.
const maxDiff = 4000

// DiffFiles splits a unified diff (Parked.Diff's) into its files, cut
// after maxDiff lines.
func DiffFiles(d string) (files []FileDiff, cut bool) {
	lines, cut := diffLines(d)
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l.Text, "diff ") || len(files) == 0 {
			name := l.Text
			if _, b, ok := strings.Cut(l.Text, " b/"); ok {
				name = b
			}
			files = append(files, FileDiff{Name: name})
		}
		f := &files[len(files)-1]
		switch l.Class {
		case "hunk": // @@ -a,b +c,d @@: the next new line is c
			_, plus, _ := strings.Cut(l.Text, " +")
			plus, _, _ = strings.Cut(plus, ",")
			plus, _, _ = strings.Cut(plus, " ")
			n, _ = strconv.Atoi(plus)
		case "add":
			f.Add++
			l.Line, n = n, n+1
		case "del":
			f.Del++
		case "ctx":
			if !strings.HasPrefix(l.Text, `\`) { // "\ No newline at end of file" is no line
				l.Line, n = n, n+1
			}
		}
		f.Lines = append(f.Lines, l)
	}
	return files, cut
}

// Short says whether the file's diff is short enough to read whole.
func (f FileDiff) Short() bool { return len(f.Lines) < 400 }

func diffLines(d string) (lines []DiffLine, cut bool) {
	all := strings.Split(strings.TrimSuffix(d, "\n"), "\n")
	if len(all) > maxDiff {
		all, cut = all[:maxDiff], true
	}
	for _, l := range all {
		c := "ctx"
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "diff "),
			strings.HasPrefix(l, "index "), strings.HasPrefix(l, "new file"), strings.HasPrefix(l, "deleted file"):
			c = "meta"
		case strings.HasPrefix(l, "@@"):
			c = "hunk"
		case strings.HasPrefix(l, "+"):
			c = "add"
		case strings.HasPrefix(l, "-"):
			c = "del"
		}
		lines = append(lines, DiffLine{Class: c, Text: l})
	}
	return lines, cut
}
