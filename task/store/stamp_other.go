//go:build !linux && !darwin

package store

import (
	"os"
	"path/filepath"
)

// statAt stamps a name in dir by size and mtime only: portable, slower and
// a little less sure than the unix version.
func statAt(_ uintptr, dirPath, name string) stamp {
	fi, err := os.Stat(filepath.Join(dirPath, name))
	if err != nil {
		return gone
	}
	return stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}

// dirStamp is not trusted here: without a ctime, a folder's mtime set back
// would hide a file added to it.
func dirStamp(*os.File) (stamp, bool) { return gone, false }
