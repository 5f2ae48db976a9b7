package jail

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/bh-tracker/bh/agent/untrusted"
	"github.com/bh-tracker/bh/task/store"
)

// bh writes its run folder (.git/bh/runs/<id>: journals, logs, session
// copies, setup marks) and the agent's session files from outside the
// sandbox. No agent can write the run folder any more, but one once could,
// and the agent's own state still can be written by it: so nothing here
// writes through a name that could be a link. Temporary files are made
// anew (O_EXCL, O_NOFOLLOW) after whatever sat at their name is removed,
// and renamed over the target, which replaces a link rather than
// following it.

// ReplaceFile replaces path with data, through path+".bh-tmp": a crash
// leaves the old file or the new one.
func ReplaceFile(path string, data []byte, perm os.FileMode) error {
	return WriteThrough(path, path+".bh-tmp", perm, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// WriteThrough writes path by write through the temporary file tmp, then
// syncs it and renames it over path.
func WriteThrough(path, tmp string, perm os.FileMode, write func(*os.File) error) error {
	f, err := CreateNew(tmp, perm)
	if err != nil {
		return err
	}
	err = write(f)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// CreateNew creates the file path, which must be a new one: a link or
// leftover at that name is removed first, and O_EXCL with O_NOFOLLOW make
// sure that the file opened is the one made, never a link's target.
func CreateNew(path string, perm os.FileMode) (*os.File, error) {
	for range 3 {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, perm)
		if !errors.Is(err, os.ErrExist) {
			return f, err
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%s: made again as fast as it is removed", path)
}

// ownDirs makes the folders below base, one part of rel after another,
// folders of bh's: a link or file at one's name, which only an agent of
// an older bh could have put there, is removed first, so that what bh
// writes inside never goes elsewhere. base itself is trusted.
func ownDirs(base string, rel ...string) (string, error) {
	dir := base
	for _, part := range rel {
		dir = filepath.Join(dir, part)
		fi, err := os.Lstat(dir)
		switch {
		case err == nil && fi.IsDir():
			continue
		case err == nil:
			if err := os.Remove(dir); err != nil {
				return "", err
			}
		case !errors.Is(err, os.ErrNotExist):
			return "", err
		}
		if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return "", err
		}
	}
	return dir, nil
}

// OwnRunDir is task id's run folder, store.RunDir[/sub...], made bh's.
func OwnRunDir(s *store.Store, id string, sub ...string) (string, error) {
	local := s.Local() // in the git dir, which is trusted
	return ownDirs(filepath.Dir(local), append([]string{filepath.Base(local), "runs", id}, sub...)...)
}

// WriteRunFile writes name in task id's run folder.
func WriteRunFile(s *store.Store, id, name string, data []byte) error {
	dir, err := OwnRunDir(s, id)
	if err != nil {
		return err
	}
	return ReplaceFile(filepath.Join(dir, name), data, 0o644)
}

// MaxSession caps a session transcript bh copies: a longer one is no
// transcript an agent wrote in one task, and is not copied.
const MaxSession = 256 << 20

// CopyUntrusted copies src to dst (made with its folders), through a temporary
// file, so that a reader never sees half a transcript. src is read as
// the agent may have left it: a link there (to ~/.ssh/id_ed25519, say)
// is refused, never followed, as is anything but a regular file under
// MaxSession; nothing is written through a link at dst or its temporary
// name.
func CopyUntrusted(src, dst string) error {
	in, err := untrusted.OpenReader(src, MaxSession)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	return WriteThrough(dst, dst+".bh-tmp", 0o600, func(out *os.File) error {
		_, err := io.Copy(out, in)
		return err
	})
}
