package sandbox

import (
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"github.com/bh-tracker/bh/agent/proc"
)

// tmpArgs mount the sandbox's private /tmp: a tmpfs, in memory, so capped
// at size bytes where bwrap takes --size (0.8 and later), lest an agent
// fill half the machine's RAM. An older bwrap gets the kernel's default
// cap (half the RAM) rather than a run that cannot start.
func tmpArgs(bwrap string, size int64) []string {
	if size > 0 && takesSize(bwrap) {
		return []string{"--size", strconv.FormatInt(size, 10), "--tmpfs", "/tmp"}
	}
	return []string{"--tmpfs", "/tmp"}
}

var (
	sizeMu   sync.Mutex
	sizeSeen = map[string]bool{} // by bwrap's path
)

// takesSize says whether the bwrap at path knows --size, from its help.
func takesSize(path string) bool {
	sizeMu.Lock()
	defer sizeMu.Unlock()
	ok, seen := sizeSeen[path]
	if !seen {
		proc.Starting([]string{path, "--help"})
		out, _ := exec.Command(path, "--help").CombinedOutput()
		ok = strings.Contains(string(out), "--size")
		sizeSeen[path] = ok
	}
	return ok
}
