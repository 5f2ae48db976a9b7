//go:build !linux

package e2e

import (
	"fmt"
	"os"
)

// TTYPush is the terminal attack of Linux's tests; elsewhere it says so.
func TTYPush() int {
	fmt.Fprintln(os.Stderr, "ttypush: Linux only")
	return 2
}
