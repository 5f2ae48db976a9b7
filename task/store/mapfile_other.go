//go:build !linux && !darwin

package store

import "os"

func mapFile(*os.File, int) ([]byte, bool) { return nil, false }
