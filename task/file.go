package task

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/gofrs/flock"
	"gopkg.in/yaml.v3"
)

// Encode renders a task as its YAML file.
func Encode(t *Task) ([]byte, error) { return render(t, nil) }

// wideRunes undoes stashWide: placeholders back to the characters.
type wideRunes map[rune]rune

// stashWide swaps the characters beyond U+FFFF (emoji) in n's scalars for
// private-use placeholders, which yaml.v3 writes as they are: it escapes
// the wide ones (\U0001F41B), and a task file is read by people. Text that
// already holds private-use characters keeps yaml.v3's escapes.
func stashWide(n *yaml.Node) wideRunes {
	var scalars []*yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			scalars = append(scalars, n)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	wide := false
	for _, sc := range scalars {
		for _, r := range sc.Value {
			if r >= 0xE000 && r <= 0xF8FF {
				return nil // a placeholder could not be told apart: keep the escapes
			}
			wide = wide || r > 0xFFFF
		}
	}
	if !wide {
		return nil
	}
	w, back := wideRunes{}, map[rune]rune{}
	for _, sc := range scalars {
		sc.Value = strings.Map(func(r rune) rune {
			if r <= 0xFFFF || !unicode.IsPrint(r) {
				return r
			}
			p, ok := back[r]
			if !ok && len(back) <= 0xF8FF-0xE000 {
				p = rune(0xE000 + len(back))
				back[r], w[p], ok = p, r, true
			}
			if !ok {
				return r // more kinds of emoji than placeholders: escaped
			}
			return p
		}, sc.Value)
	}
	return w
}

// Replace puts the wide characters back in place of their placeholders.
func (w wideRunes) Replace(b []byte) []byte {
	if len(w) == 0 {
		return b
	}
	return []byte(strings.Map(func(r rune) rune {
		if o, ok := w[r]; ok {
			return o
		}
		return r
	}, string(b)))
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
	defer os.Remove(tmp)       // a no-op after the rename
	mode := os.FileMode(0o644) // not CreateTemp's 0600: the file is shared through git
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
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

// CleanTemp removes temporary files of writes that a killed process left
// in .bh/tmp, once they are older than age (a live writer is done within
// milliseconds).
func (s *Store) CleanTemp(age time.Duration) {
	for _, p := range s.StaleTemp(age) {
		os.Remove(p)
	}
}

// StaleTemp lists the store's temp files older than age: those in
// .bh/tmp (task file writes) and the list cache's (.bh/cache/.tasks.bin.*).
// It is what CleanTemp removes.
func (s *Store) StaleTemp(age time.Duration) []string {
	var paths []string
	entries, _ := os.ReadDir(filepath.Join(s.Dir, "tmp"))
	for _, e := range entries {
		paths = append(paths, filepath.Join(s.Dir, "tmp", e.Name()))
	}
	cache, _ := filepath.Glob(filepath.Join(s.Dir, "cache", ".tasks.bin.*"))
	var stale []string
	for _, p := range append(paths, cache...) {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && filepath.Base(p) != ".gitignore" &&
			time.Since(fi.ModTime()) > age {
			stale = append(stale, p)
		}
	}
	return stale
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

// localDir creates a folder of machine-local state that ignores itself, so
// that its files stay out of git status even where .bh/.gitignore was
// edited or predates the folder.
func localDir(dir string) error {
	err := os.Mkdir(dir, 0o755)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*\n"), 0o644)
}
