// Package untrusted reads files an agent could have written (its outbox,
// its session transcripts, its output files) as hostile input: a link
// there is refused, never followed, since bh reads outside the sandbox
// and a link would hand it the user's secrets (a transcript made a link
// to ~/.ssh/id_ed25519 was once copied, committed and pushed); so is
// anything but a regular file (a FIFO would hang bh) and anything larger
// than the caller expects.
package untrusted

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// Error is a file that is not what bh expects to find: a link, not a
// regular file, or too large. It is the agent's doing, never bh's.
type Error struct {
	Path string
	Why  string
}

func (e *Error) Error() string { return e.Path + ": " + e.Why }

// Open opens path for reading, refusing a link in its last part, anything
// but a regular file and a file over max bytes. The folders above path
// must be bh's own (no agent can replace them).
func Open(path string, max int64) (*os.File, error) {
	// O_NONBLOCK: opening a FIFO would wait for a writer forever.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) {
		return nil, &Error{Path: path, Why: "a symbolic link, not a file: refused"}
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, err
	case !fi.Mode().IsRegular():
		f.Close()
		return nil, &Error{Path: path, Why: fmt.Sprintf("not a regular file (%s): refused", fi.Mode().Type())}
	case fi.Size() > max:
		f.Close()
		return nil, tooLarge(path, max)
	}
	return f, nil
}

// ReadFile reads path as Open opens it. A file that grows past max while
// it is read is refused too.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, tooLarge(path, max)
	}
	return b, nil
}

// Reader is an open file that fails once it has given more than its cap.
type Reader struct {
	f    *os.File
	left int64
	path string
	max  int64
}

// OpenReader opens path as Open does, for reading it as a stream.
func OpenReader(path string, max int64) (*Reader, error) {
	f, err := Open(path, max)
	if err != nil {
		return nil, err
	}
	return &Reader{f: f, left: max, path: path, max: max}, nil
}

func (r *Reader) Read(p []byte) (int, error) {
	if r.left < 0 {
		return 0, tooLarge(r.path, r.max)
	}
	if int64(len(p)) > r.left+1 {
		p = p[:r.left+1]
	}
	n, err := r.f.Read(p)
	r.left -= int64(n)
	if r.left < 0 {
		return 0, tooLarge(r.path, r.max)
	}
	return n, err
}

// Close closes the file.
func (r *Reader) Close() error { return r.f.Close() }

func tooLarge(path string, max int64) error {
	return &Error{Path: path, Why: fmt.Sprintf("larger than %d bytes: refused", max)}
}
