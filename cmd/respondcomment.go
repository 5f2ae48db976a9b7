package cmd

import (
	"slices"
	"strconv"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// lineComments reads the --comment flags (PATH:LINE=TEXT), given with --no
// or not, and checks that each names a file of t's change, before anything
// is saved.
func lineComments(flags []string, no bool, s *store.Store, t *task.Task) ([]task.LineComment, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	if !no {
		return nil, usageErrorf("--comment goes with --no: the comments are feedback for the agent, and a yes lands the change as it is")
	}
	var out []task.LineComment
	for _, f := range flags {
		where, text, ok := strings.Cut(f, "=")
		path, num, _ := cutLast(where, ":")
		line, err := strconv.Atoi(strings.TrimSpace(num))
		switch {
		case !ok || path == "" || num == "":
			return nil, usageErrorf("--comment %q: write it PATH:LINE=TEXT, as in --comment main.go:12=\"check the error\"", f)
		case err != nil || line < 1:
			return nil, usageErrorf("--comment %q: the line is a number from 1, not %q", f, num)
		}
		out = append(out, task.LineComment{Path: path, Line: line, Text: text})
	}
	paths, err := changedPaths(s, t.ID)
	if err != nil {
		return nil, err
	}
	for _, c := range out {
		if !slices.Contains(paths, c.Path) {
			return nil, withHint(usageErrorf("--comment %s:%d: %s is not a file of %s's change", c.Path, c.Line, c.Path, t.ID),
				changeHint(t.ID, paths))
		}
	}
	return out, nil
}

// changedPaths are the files the agent changed in task id's parked work.
func changedPaths(s *store.Store, id string) ([]string, error) {
	p, err := git.FindParked(s.Root, id)
	if err != nil || p.Commit == "" {
		return nil, err
	}
	return p.Repo.ChangedPaths(p.Base, p.Commit)
}

func changeHint(id string, paths []string) string {
	if len(paths) == 0 {
		return id + " has no change to comment on"
	}
	return "the files of the change (bh diff " + id + " --stat): " + strings.Join(paths, ", ")
}

// cutLast is strings.Cut at the last sep: a path may hold colons itself.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}
