package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// fileState is what one path holds in the working tree. Data is the raw bytes
// (a symlink's target), before any clean filter.
type fileState struct {
	Exists bool
	Mode   filemode.FileMode
	Data   []byte
}

func (f fileState) hash() plumbing.Hash {
	return plumbing.ComputeHash(plumbing.BlobObject, f.Data)
}

func (r *Repo) abs(p string) string { return filepath.Join(r.Root, filepath.FromSlash(p)) }

// readFile reads p from the working tree. Anything that is not a regular file
// or a symlink (a directory, a socket) counts as absent: git cannot track it.
func (r *Repo) readFile(p string) (fileState, error) {
	full := r.abs(p)
	fi, err := r.lstat(p)
	if fi == nil || err != nil {
		return fileState{}, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(full)
		if err != nil {
			return fileState{}, err
		}
		return fileState{Exists: true, Mode: filemode.Symlink, Data: []byte(target)}, nil
	case fi.Mode().IsRegular():
		data, err := os.ReadFile(full)
		if err != nil {
			return fileState{}, err
		}
		mode := filemode.Regular
		if fi.Mode()&0o100 != 0 {
			mode = filemode.Executable
		}
		return fileState{Exists: true, Mode: mode, Data: data}, nil
	}
	return fileState{}, nil
}

// lstat is os.Lstat of p as git sees the tree: a path below a symbolic link
// is not in the working tree (git calls it "beyond a symbolic link"), and
// neither is one below a file. It returns nil, nil for a path that is absent.
func (r *Repo) lstat(p string) (fs.FileInfo, error) {
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		fi, err := os.Lstat(r.abs(p[:i]))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				return nil, nil
			}
			return nil, err
		}
		if !fi.IsDir() {
			return nil, nil
		}
	}
	fi, err := os.Lstat(r.abs(p))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	return fi, err
}

// sameMode compares modes the way git does: the exec bit only counts when
// core.fileMode is on.
func (r *Repo) sameMode(a, b filemode.FileMode) bool {
	if a == b {
		return true
	}
	regular := func(m filemode.FileMode) bool { return m == filemode.Regular || m == filemode.Executable }
	return !r.honourFileMode() && regular(a) && regular(b)
}

// writeFile puts data at p with mode, atomically: a reader (or a crash) sees
// the old content or the new, never half of it.
func (r *Repo) writeFile(p string, mode filemode.FileMode, data []byte) error {
	full := r.abs(p)
	perm := os.FileMode(0o666) // as git creates files; the umask applies
	if mode == filemode.Executable {
		perm = 0o777
	}
	keep := false
	fi, err := os.Lstat(full)
	if err == nil && fi.Mode().IsRegular() {
		// keep the permissions the file has (a private 0600 stays private)
		perm, keep = fi.Mode().Perm()&^0o111, true
		if mode == filemode.Executable {
			perm |= (perm & 0o444) >> 2
		}
	}
	if err == nil && fi.IsDir() {
		// a directory the agent made where a file was: its files are gone by now
		if err := os.Remove(full); err != nil {
			return fmt.Errorf("restore %s: a directory is in the way: %w", p, err)
		}
	}
	dir := filepath.Dir(full)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("restore %s: %w", p, err)
	}
	tmp := filepath.Join(dir, fmt.Sprintf(".bh-restore-%d-%s", os.Getpid(), path.Base(p)))
	if len(tmp)-len(dir) > 200 {
		tmp = filepath.Join(dir, fmt.Sprintf(".bh-restore-%d", os.Getpid()))
	}
	_ = os.Remove(tmp)
	if mode == filemode.Symlink {
		if err := os.Symlink(string(data), tmp); err != nil {
			return fmt.Errorf("restore %s: %w", p, err)
		}
	} else {
		err := os.WriteFile(tmp, data, perm)
		if err == nil && keep {
			err = os.Chmod(tmp, perm)
		}
		if err != nil {
			_ = os.Remove(tmp)
			return fmt.Errorf("restore %s: %w", p, err)
		}
	}
	if err := os.Rename(tmp, full); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("restore %s: %w", p, err)
	}
	return nil
}

// removeFile deletes p, then each parent directory left empty, up to the
// root. Only files and empty directories go: never a directory with content.
func (r *Repo) removeFile(p string) error {
	full := r.abs(p)
	err := os.Remove(full)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	for dir := path.Dir(p); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if os.Remove(r.abs(dir)) != nil {
			break
		}
	}
	return nil
}
