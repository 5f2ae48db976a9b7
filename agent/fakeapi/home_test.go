package fakeapi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Isolated gives the tests a home of their own: HOME and every XDG folder
// point into one fresh temporary folder, which is gone afterwards, so
// that what a test or the bh it starts writes never reaches the user's
// folders. Nothing is compared with the user's real folders: a bh of the
// user's may change them meanwhile.
func TestIsolatedRunsInAHomeOfItsOwn(t *testing.T) {
	vars := []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"}
	for _, v := range vars {
		t.Setenv(v, "/nonexistent/user/"+v) // restored after Isolated moves them
	}
	var home string
	code := Isolated(func() int {
		home = os.Getenv("HOME")
		if !strings.HasPrefix(home, os.TempDir()) || !strings.Contains(filepath.Base(home), "bh-test-home-") {
			t.Errorf("HOME = %s, want a fresh folder under %s", home, os.TempDir())
		}
		for _, v := range vars[1:] {
			if d := os.Getenv(v); !strings.HasPrefix(d, home+string(filepath.Separator)) {
				t.Errorf("%s = %s, want a folder in the tests' home %s", v, d, home)
			} else if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
				t.Errorf("%s: %v", v, err)
			}
		}
		return 3
	})
	if code != 3 {
		t.Errorf("exit code %d, want the tests' own (3)", code)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Errorf("the tests' home %s is left: %v", home, err)
	}
}
