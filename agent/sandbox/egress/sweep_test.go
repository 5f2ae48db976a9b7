package egress

import (
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A proxy folder a killed worker left (its socket refuses, it is old) is
// swept; a live proxy's and a fresh one's stay.
func TestSweepRemovesWhatKilledWorkersLeft(t *testing.T) {
	was := tmpRoot
	tmpRoot = t.TempDir()
	t.Cleanup(func() { tmpRoot = was })
	old := time.Now().Add(-time.Hour)
	mk := func(name string, listen bool) string {
		d := filepath.Join(tmpRoot, name)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("unix", filepath.Join(d, "proxy.sock"))
		if err != nil {
			t.Fatal(err)
		}
		if listen {
			t.Cleanup(func() { ln.Close() })
		} else {
			ln.(*net.UnixListener).SetUnlinkOnClose(false)
			ln.Close() // the socket file stays, as a killed process leaves it
		}
		return d
	}
	dead, live, fresh := mk("bh-egress-1", false), mk("bh-egress-2", true), mk("bh-egress-3", false)
	for _, d := range []string{dead, live} {
		os.Chtimes(d, old, old)
	}
	sweep()
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("a dead proxy's folder stays: %v", err)
	}
	for _, d := range []string{live, fresh} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s went: %v", d, err)
		}
	}
}
