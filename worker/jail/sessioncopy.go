package jail

import (
	"io"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/agent/untrusted"
	"github.com/bh-tracker/bh/task/store"
)

// SessionCopy is bh's copy of a session's transcript, kept with the task's
// local state (never committed): Claude Code removes old sessions, and
// another HOME has none.
func SessionCopy(s *store.Store, id, session string) string {
	return filepath.Join(s.Dir, "runs", id, "sessions", session+".jsonl")
}

// MaxSession caps a session transcript bh copies: a longer one is no
// transcript an agent wrote in one task, and is not copied.
const MaxSession = 256 << 20

// CopyOver copies src to dst (made with its folders), through a temporary
// file, so that a reader never sees half a transcript. src is read as
// the agent may have left it: a link there (to ~/.ssh/id_ed25519, say)
// is refused, never followed, as is anything but a regular file under
// MaxSession; nothing is written through a link at dst or its temporary
// name.
func CopyOver(src, dst string) error {
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
