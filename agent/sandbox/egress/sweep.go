package egress

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// tmpRoot is where proxies make their folders (Start); tests move it.
var tmpRoot = "/tmp"

var sweepOnce sync.Once

// sweep removes the folders of proxies that are gone: a worker killed
// without its deferred Close (bh worker | tee, then Ctrl-C: the pipe's
// end kills bh on its next write) leaves its folder each time. A folder
// is gone when its socket refuses connections (no process listens) and it
// is older than a minute (a proxy starting listens within milliseconds);
// a live proxy's, or another user's, stays.
func sweep() {
	dirs, _ := filepath.Glob(filepath.Join(tmpRoot, "bh-egress-*"))
	for _, d := range dirs {
		fi, err := os.Lstat(d)
		if err != nil || !fi.IsDir() || time.Since(fi.ModTime()) < time.Minute {
			continue
		}
		c, err := net.DialTimeout("unix", filepath.Join(d, "proxy.sock"), time.Second)
		if err == nil {
			c.Close()
			continue
		}
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, os.ErrNotExist) {
			os.RemoveAll(d)
		}
	}
}
