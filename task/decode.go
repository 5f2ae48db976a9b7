package task

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// FileError is a task file bh could not read. bh never rewrites such a file.
type FileError struct {
	Path string
	Line int
	Msg  string
	Tip  string
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// Hint tells the user what to do about it.
func (e *FileError) Hint() string { return e.Tip }

// Decode parses one task file. path is only used in errors, and id (when
// not empty) must match the id inside.
func Decode(path string, b []byte, id string) (*Task, error) {
	if loc := conflictMarker(b); loc >= 0 {
		return nil, &FileError{Path: path, Line: 1 + bytes.Count(b[:loc], []byte("\n")),
			Msg: "git conflict markers", Tip: "resolve the merge conflict in this file (keep one side of each <<<<<<< ======= >>>>>>> block), then run bh again"}
	}
	if t, ok := decodeFast(b, id); ok {
		return t, nil
	}
	return decodeYAML(path, b, id)
}

// decodeYAML is Decode through yaml.v3, for any file.
func decodeYAML(path string, b []byte, id string) (*Task, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, yamlError(path, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, &FileError{Path: path, Line: 1, Msg: "not a task (expected a YAML mapping)"}
	}
	var t Task
	m := doc.Content[0]
	if err := doc.Decode(&t); err != nil {
		return nil, fieldError(path, m, err)
	}
	bad := func(key, msg string) error {
		return &FileError{Path: path, Line: cmp.Or(KeyLine(m, key), m.Line), Msg: msg, Tip: "fix it with bh edit, or by hand"}
	}
	if key, msg := t.checkID(id); msg != "" {
		return nil, bad(key, msg)
	}
	if p := typoKey(m); p != nil {
		return nil, bad(p.key, p.msg)
	}
	if key, sub, err := t.normalize(); err != nil && sub != "" {
		return nil, &FileError{Path: path, Line: KeyLine(m, key, sub),
			Msg: key + "." + sub + ": " + err.Error(), Tip: "fix it with bh edit, or by hand"}
	} else if err != nil {
		return nil, bad(key, err.Error())
	}
	return &t, nil
}

// checkID reports the first of a task's id and title that is wrong: the
// key and what is wrong with it. id, when not empty, is the file's name.
func (t *Task) checkID(id string) (key, msg string) {
	switch {
	case t.ID == "":
		return "id", "missing id"
	case !ValidID(t.ID):
		return "id", fmt.Sprintf("id %q is not a task id", t.ID)
	case id != "" && t.ID != id:
		return "id", fmt.Sprintf("id %q does not match the file name", t.ID)
	case t.Title == "":
		return "title", "missing title"
	}
	return "", ""
}

// normalize checks and normalises a task's values as they are read
// (priority: 0 is P0), and reports the key (and the key under it) of the
// first wrong one.
func (t *Task) normalize() (key, sub string, err error) {
	for _, c := range []struct {
		key   string
		check func() error
	}{
		{"state", func() (err error) { t.State, err = ParseState(string(t.State)); return err }},
		{"type", func() (err error) { t.Type, err = ParseType(string(t.Type)); return err }},
		{"priority", func() (err error) { t.Priority, err = ParsePriority(string(t.Priority)); return err }},
		{"size", func() (err error) {
			if t.Size != "" {
				t.Size, err = ParseSize(string(t.Size))
			}
			return err
		}},
		{"checks", func() error { return wrapf("checks", CheckCommands(t.Checks)) }},
		{"sandbox", func() error { return CheckSandboxMode(t.Sandbox) }},
		{"budget", func() error { return CheckBudget(t.Budget) }},
		{"every", func() error { return CheckSchedule(t.Every) }},
		{"follows", func() error {
			if t.Follows != "" && !ValidID(t.Follows) {
				return fmt.Errorf("%q is not a task id", t.Follows)
			}
			return nil
		}},
		{"attempts", func() error { return CheckAttempts(t.Attempts) }},
		{"agents", func() error { return CheckAgents(t.Agents) }},
	} {
		if err := c.check(); err != nil {
			return c.key, "", err
		}
	}
	if a := t.AgentSettings; a != nil {
		if key, err := a.Check(); err != nil {
			return "agentSettings", key, err
		}
		if a.Empty() {
			t.AgentSettings = nil
		}
	}
	t.tidy()
	return "", "", nil
}

// wrapf is err said of what, nil when err is.
func wrapf(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}

// tidy makes empty lists nil, as they are after a round trip through the
// file (which omits them), so that a task equals its own re-read.
func (t *Task) tidy() {
	nilIfEmpty(&t.DependsOn)
	nilIfEmpty(&t.Labels)
	nilIfEmpty(&t.Issues)
	nilIfEmpty(&t.Checks)
	nilIfEmpty(&t.Questions)
	nilIfEmpty(&t.History)
	for i := range t.Questions {
		nilIfEmpty(&t.Questions[i].Options)
		nilIfEmpty(&t.Questions[i].Answer)
	}
}

func nilIfEmpty[T any](s *[]T) {
	if len(*s) == 0 {
		*s = nil
	}
}

// conflictMarker finds the first line git writes around a merge conflict
// (<<<<<<<, ======= or >>>>>>>, alone or before a space), or returns -1.
func conflictMarker(b []byte) int {
	for at := 0; at < len(b); {
		line := b[at:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) >= 7 && (line[0] == '<' || line[0] == '=' || line[0] == '>') &&
			bytes.Count(line[:7], line[:1]) == 7 && (len(line) == 7 || line[7] == ' ') {
			return at
		}
		next := bytes.IndexByte(b[at:], '\n')
		if next < 0 {
			break
		}
		at += next + 1
	}
	return -1
}

// yamlError turns yaml.v3's error into a FileError at the line it names.
func yamlError(path string, err error) error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	fe := &FileError{Path: path, Msg: msg, Tip: "fix the YAML by hand, or take the committed version back with git checkout -- " + path}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		num, text, _ := strings.Cut(rest, ":")
		if n, err := strconv.Atoi(num); err == nil {
			fe.Line, fe.Msg = n, strings.TrimSpace(text)
		}
	}
	return fe
}

// fieldError places an error that yaml.v3 gave without a line, such as a
// bad time, at the first top-level field that fails on its own.
func fieldError(path string, m *yaml.Node, err error) error {
	fe := yamlError(path, err).(*FileError)
	if fe.Line > 0 {
		return fe
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		one := &yaml.Node{Kind: yaml.MappingNode, Content: m.Content[i : i+2]}
		var t Task
		if ferr := one.Decode(&t); ferr != nil {
			fe.Line, fe.Msg = m.Content[i].Line, m.Content[i].Value+": "+fe.Msg
			break
		}
	}
	return fe
}

type keyProblem struct{ key, msg string }

// typoKey finds a key bh does not know that is near one it does: a typo
// (priorty: P0) that would otherwise be silently ignored. Other unknown
// keys are the user's own, and are kept.
func typoKey(m *yaml.Node) *keyProblem {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		if taskKeys()[k] {
			continue
		}
		known := slices.Sorted(maps.Keys(taskKeys()))
		if s := NearestKey(k, known); s != "" && editDistance(k, s) <= 2 {
			return &keyProblem{k, fmt.Sprintf("unknown key %q (did you mean %q?)", k, s)}
		}
	}
	return nil
}
