package task

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/gofrs/flock"
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

var (
	conflictRe = regexp.MustCompile(`(?m)^(<<<<<<<|=======|>>>>>>>)( |$)`)
	yamlLineRe = regexp.MustCompile(`^(?:yaml: )?line (\d+)`)
)

// Decode parses one task file. path is only used in errors, and id (when
// not empty) must match the id inside.
func Decode(path string, b []byte, id string) (*Task, error) {
	if loc := conflictMarker(b); loc >= 0 {
		return nil, &FileError{Path: path, Line: 1 + bytes.Count(b[:loc], []byte("\n")),
			Msg: "git conflict markers", Tip: "resolve the merge conflict in this file (keep one side of each <<<<<<< ======= >>>>>>> block), then run bh again"}
	}
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
		return &FileError{Path: path, Line: keyLine(m, key), Msg: msg, Tip: "fix it with bh edit, or by hand"}
	}
	switch {
	case t.ID == "":
		return nil, bad("id", "missing id")
	case !validID(t.ID):
		return nil, bad("id", fmt.Sprintf("id %q is not a task id", t.ID))
	case id != "" && t.ID != id:
		return nil, bad("id", fmt.Sprintf("id %q does not match the file name", t.ID))
	case t.Title == "":
		return nil, bad("title", "missing title")
	}
	if _, err := ParseState(string(t.State)); err != nil {
		return nil, bad("state", err.Error())
	}
	if _, err := ParseType(string(t.Type)); err != nil {
		return nil, bad("type", err.Error())
	}
	if _, err := ParsePriority(string(t.Priority)); err != nil {
		return nil, bad("priority", err.Error())
	}
	if t.Size != "" {
		if _, err := ParseSize(string(t.Size)); err != nil {
			return nil, bad("size", err.Error())
		}
	}
	t.tidy()
	return &t, nil
}

// tidy makes empty lists nil, as they are after a round trip through the
// file (which omits them), so that a task equals its own re-read.
func (t *Task) tidy() {
	nilIfEmpty(&t.DependsOn)
	nilIfEmpty(&t.Labels)
	nilIfEmpty(&t.Issues)
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

// conflictMarker finds the first line git writes around a merge conflict,
// or returns -1. The regexp only runs on files that may hold one.
func conflictMarker(b []byte) int {
	if !bytes.Contains(b, []byte("<<<<<<<")) && !bytes.Contains(b, []byte("=======")) && !bytes.Contains(b, []byte(">>>>>>>")) {
		return -1
	}
	if loc := conflictRe.FindIndex(b); loc != nil {
		return loc[0]
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
	fe := &FileError{Path: path, Msg: msg, Tip: "fix the YAML by hand, or take the committed version back with git checkout -- " + path}
	if m := yamlLineRe.FindStringSubmatchIndex(msg); m != nil {
		fe.Line, _ = strconv.Atoi(msg[m[2]:m[3]])
		fe.Msg = strings.TrimPrefix(msg[m[1]:], ": ")
	}
	fe.Msg = strings.TrimPrefix(fe.Msg, "yaml: ")
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

func keyLine(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i].Line
		}
	}
	return m.Line
}

// Encode renders a task as its YAML file.
func Encode(t *Task) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(t); err != nil {
		return nil, fmt.Errorf("encode %s: %w", t.ID, err)
	}
	return buf.Bytes(), enc.Close()
}

// writeAtomic replaces path with data so that readers see the old file or
// the new one, never a torn one, even across a crash.
func writeAtomic(tmpDir, path string, data []byte) error {
	if err := localDir(tmpDir); err != nil {
		return err
	}
	f, err := os.CreateTemp(tmpDir, filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op after the rename
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// lock takes the per-task lock that serializes read-modify-write.
func (s *Store) lock(id string) (*flock.Flock, error) {
	if !validID(id) {
		return nil, &BadIDError{Ref: id}
	}
	dir := filepath.Join(s.Dir, "locks")
	if err := localDir(dir); err != nil {
		return nil, fmt.Errorf("lock %s: %w", id, err)
	}
	l := flock.New(filepath.Join(dir, id+".lock"))
	if err := l.Lock(); err != nil {
		return nil, fmt.Errorf("lock %s: %w", id, err)
	}
	return l, nil
}
