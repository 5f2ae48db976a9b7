//go:build !linux

package sandbox

import "os"

// seccompFile is nil off Linux, where bubblewrap does not run.
func seccompFile() (*os.File, error) { return nil, nil }
