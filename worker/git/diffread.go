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
	lines, cut := diffLines(d, maxDiff)
	return splitFiles(lines), cut
}

// Commentable are the lines a comment may go on in diff d, whole: by path,
// the lines of the new file it shows (added ones and those around them).
func Commentable(d string) map[string][]int {
	lines, _ := diffLines(d, -1)
	out := map[string][]int{}
	for _, f := range splitFiles(lines) {
		for _, l := range f.Lines {
			if l.Line > 0 {
				out[f.Name] = append(out[f.Name], l.Line)
			}
		}
	}
	return out
}

// splitFiles groups a diff's lines by file, each named by its path as is
// (git quotes some: see diffPath), and numbers the lines of the new file.
func splitFiles(lines []DiffLine) []FileDiff {
	var files []FileDiff
	n, head := 0, false // head: in a file's header, before its first hunk
	for _, l := range lines {
		if strings.HasPrefix(l.Text, "diff ") || len(files) == 0 {
			files, head = append(files, FileDiff{Name: headerPath(l.Text)}), true
		}
		f := &files[len(files)-1]
		if p, ok := strings.CutPrefix(l.Text, "+++ "); ok && head && p != "/dev/null" {
			f.Name = strings.TrimPrefix(diffPath(p), "b/")
		} else if p, ok := strings.CutPrefix(l.Text, "rename to "); ok && head {
			f.Name = diffPath(p)
		}
		switch l.Class {
		case "hunk": // @@ -a,b +c,d @@: the next new line is c
			head = false
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
	return files
}

// diffPath is a path as a diff's header writes it: git puts in C-style
// quotes a path with a byte it will not show (a quote, a backslash, a
// control character, and any byte past ASCII unless core.quotepath is
// off), and a tab after one with a space in ---/+++ lines. Go's own
// quoting reads git's (octal bytes, \t, \", \\).
func diffPath(p string) string {
	p = strings.TrimSuffix(p, "\t")
	if strings.HasPrefix(p, `"`) {
		if u, err := strconv.Unquote(p); err == nil {
			return u
		}
	}
	return p
}

// headerPath is the new path a "diff --git a/X b/Y" line names (the file
// of a diff without ---/+++ lines: a binary file, a mode changed). A path
// with a space is unquoted: when both halves are one path, they are
// equal; else it is cut at the last " b/".
func headerPath(h string) string {
	rest, ok := strings.CutPrefix(h, "diff --git ")
	if !ok {
		return h
	}
	if q, err := strconv.QuotedPrefix(rest); err == nil { // "a/X" then b/Y, quoted or not
		rest = strings.TrimPrefix(rest[len(q):], " ")
		return strings.TrimPrefix(diffPath(rest), "b/")
	}
	if i := strings.Index(rest, ` "b/`); i >= 0 {
		return strings.TrimPrefix(diffPath(rest[i+1:]), "b/")
	}
	if half := (len(rest) - 5) / 2; half > 0 && len(rest)%2 == 1 && strings.HasPrefix(rest, "a/") &&
		rest[2:2+half] == rest[len(rest)-half:] {
		return rest[2 : 2+half]
	}
	if i := strings.LastIndex(rest, " b/"); i >= 0 {
		return rest[i+3:]
	}
	return h
}

// Short says whether the file's diff is short enough to read whole.
func (f FileDiff) Short() bool { return len(f.Lines) < 400 }

// diffLines are d's lines, classed; at most limit of them (all when limit < 0).
func diffLines(d string, limit int) (lines []DiffLine, cut bool) {
	all := strings.Split(strings.TrimSuffix(d, "\n"), "\n")
	if limit >= 0 && len(all) > limit {
		all, cut = all[:limit], true
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
