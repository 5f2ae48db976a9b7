package cmd

import (
	"strconv"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// lineComments reads the --comment flags (PATH:LINE=TEXT), given with --no
// or not. That each is on a line of the task's change is the door's to
// check (act.Answer), as every channel's comments are.
func lineComments(flags []string, no bool) ([]task.LineComment, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	if !no {
		return nil, usageErrorf("--comment goes with --no: the comments are feedback for the agent, and a yes lands the change as it is")
	}
	var out []task.LineComment
	for _, f := range flags {
		c, err := parseComment(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// cutLast is strings.Cut at the last sep: a path may hold colons itself.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// parseComment is one --comment PATH:LINE=TEXT.
func parseComment(f string) (task.LineComment, error) {
	where, text, ok := strings.Cut(f, "=")
	path, num, _ := cutLast(where, ":")
	line, err := strconv.Atoi(strings.TrimSpace(num))
	switch {
	case !ok || path == "" || num == "":
		return task.LineComment{}, usageErrorf("--comment %q: write it PATH:LINE=TEXT, as in --comment main.go:12=\"check the error\"", f)
	case err != nil || line < 1:
		return task.LineComment{}, usageErrorf("--comment %q: the line is a number from 1, not %q", f, num)
	}
	return task.LineComment{Path: path, Line: line, Text: text}, nil
}
