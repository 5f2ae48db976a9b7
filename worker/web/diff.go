package web

import "strings"

// diffLine is one line of a diff, with its class for colour.
type diffLine struct{ Class, Text string }

// fileDiff is one file's part of a diff, with its lines added and deleted.
type fileDiff struct {
	Name     string
	Add, Del int
	Lines    []diffLine
}

// maxDiff bounds the diff a page shows; bh diff has the rest.
const maxDiff = 4000

// fileDiffs splits a unified diff into its files.
func fileDiffs(d string) (files []fileDiff, cut bool) {
	lines, cut := diffLines(d)
	for _, l := range lines {
		if strings.HasPrefix(l.Text, "diff ") || len(files) == 0 {
			name := l.Text
			if _, b, ok := strings.Cut(l.Text, " b/"); ok {
				name = b
			}
			files = append(files, fileDiff{Name: name})
		}
		f := &files[len(files)-1]
		f.Lines = append(f.Lines, l)
		switch l.Class {
		case "add":
			f.Add++
		case "del":
			f.Del++
		}
	}
	return files, cut
}

func diffLines(d string) (lines []diffLine, cut bool) {
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
		lines = append(lines, diffLine{c, l})
	}
	return lines, cut
}
