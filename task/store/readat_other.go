//go:build !linux && !darwin

package store

import (
	"os"
	"path/filepath"
)

// readAt reads a name in dir: portable, and slower than the unix version.
func readAt(_ uintptr, dirPath, name string, _ []byte) ([]byte, error) {
	return os.ReadFile(filepath.Join(dirPath, name))
}
