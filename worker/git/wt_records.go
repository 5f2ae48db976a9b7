package git

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// bh's records of a worktree (its fork point, a rebase's onto, a pool
// slot's holder) live in <common dir>/bh/records/<name>-<hash of its
// path>/, read-only inside the sandbox, not in the worktree's admin dir,
// which the sandbox binds writable: an agent that rewrote the fork point
// there made bh measure its work from any commit it chose. The folder is
// cleared wherever git makes the admin dir anew (before `worktree add`: a
// kill after it finds none) and when the worktree is removed.

// Names of the records.
const (
	recBase   = "base"      // the fork point (see Worktree.Base)
	recOnto   = "base-onto" // a rebase's onto until its base is recorded (see rebasedOnto)
	recHolder = "holder"    // the task a pool slot is given to (see ResetSlot)
)

// storeMarker names the main tree for bh run inside the worktree
// (task/store's StoreMarker): it stays in the admin dir, where that bh
// looks, and the sandbox binds it read-only (see TrustedFiles).
const storeMarker = "bh-store"

// RecordsDir is the folder of bh's records of the worktree at path.
func (r *Repo) RecordsDir(path string) string {
	if p, err := canonPath(path); err == nil {
		path = p
	}
	sum := sha1.Sum([]byte(path))
	return filepath.Join(r.commonDir, "bh", "records", filepath.Base(path)+"-"+hex.EncodeToString(sum[:6]))
}

// writeRecord writes one of the worktree's records (see writeMarker).
func writeRecord(dir, name, content string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	return writeMarker(filepath.Join(dir, name), content)
}

// readTrimmed is the content of dir/name (a record, one of git's own
// one-line files), trimmed; "" when it is missing or unreadable.
func readTrimmed(dir, name string) string {
	data, _ := os.ReadFile(filepath.Join(dir, name))
	return strings.TrimSpace(string(data))
}

// clearDir removes what dir holds but those named in keep, and dir
// itself when keep is empty (a worktree's records, say).
func clearDir(dir string, keep ...string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	for _, e := range entries {
		if !slices.Contains(keep, e.Name()) {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	if len(keep) == 0 {
		return os.Remove(dir)
	}
	return nil
}
