// Package atomicfile writes the files of task/store and task/config so that
// a crash leaves the old file or the new one, never half of one.
package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces path with data so that readers see the old file or
// the new one, never a torn one, even across a crash. What is at path
// when it returns is what it wrote: the temporary file is made anew
// (O_EXCL) and, once renamed, checked to be the very file written. A
// file someone renamed onto the temporary name in between (an agent
// could, while .bh/tmp was writable in its sandbox, and so switch its own
// sandbox off) is written over again.
func Write(tmpDir, path string, data []byte) error {
	for range 3 {
		if ok, err := write(tmpDir, path, data); err != nil || ok {
			return err
		}
	}
	return fmt.Errorf("%s: another file was put in place of bh's as it was written, 3 times", path)
}

// write is one try of Write; false: the file renamed was not the one
// written.
func write(tmpDir, path string, data []byte) (bool, error) {
	if err := LocalDir(tmpDir); err != nil {
		return false, err
	}
	f, err := os.CreateTemp(tmpDir, filepath.Base(path)+".*")
	if err != nil {
		return false, err
	}
	tmp := f.Name()
	defer os.Remove(tmp)       // a no-op after the rename
	mode := os.FileMode(0o644) // not CreateTemp's 0600: the file is shared through git
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return false, err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return false, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return false, err
	}
	mine, err := f.Stat()
	if err != nil {
		f.Close()
		return false, err
	}
	if err := f.Close(); err != nil {
		return false, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return false, err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	there, err := os.Lstat(path)
	if err != nil {
		return false, err
	}
	return os.SameFile(mine, there), nil
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
