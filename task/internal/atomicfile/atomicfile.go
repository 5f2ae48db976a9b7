// Package atomicfile writes the files of task/store and task/config so that
// a crash leaves the old file or the new one, never half of one.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
)

// Write replaces path with data so that readers see the old file or
// the new one, never a torn one, even across a crash.
func Write(tmpDir, path string, data []byte) error {
	if err := LocalDir(tmpDir); err != nil {
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

// LocalDir creates a folder of machine-local state that ignores itself, so
// that its files stay out of git status even where .bh/.gitignore was
// edited or predates the folder.
func LocalDir(dir string) error {
	err := os.Mkdir(dir, 0o755)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*\n"), 0o644)
}
