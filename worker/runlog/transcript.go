package runlog

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/bh-tracker/bh/agent"
)

// Transcript is run n (1 is the first; 0 the last) of task id, read from
// its log in the task's run folder dir, and how many runs there are.
func Transcript(dir, id string, n int) ([]agent.Entry, int, error) {
	logs, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil {
		return nil, 0, err
	}
	sort.Strings(logs) // named by start time
	if len(logs) == 0 {
		return nil, 0, fmt.Errorf("%s has no run log yet", id)
	}
	if n == 0 {
		n = len(logs)
	}
	if n < 1 || n > len(logs) {
		return nil, len(logs), fmt.Errorf("%s has runs 1 to %d, not %d", id, len(logs), n)
	}
	b, err := os.ReadFile(logs[n-1])
	if err != nil {
		return nil, len(logs), err
	}
	return agent.Transcript(logSection(b, "stdout")), len(logs), nil
}

// logSection is the part of a run log under its "----- name -----" line.
func logSection(log []byte, name string) []byte {
	_, rest, ok := bytes.Cut(log, []byte("\n----- "+name+" -----\n"))
	if !ok {
		return nil
	}
	if i := bytes.Index(rest, []byte("\n----- ")); i >= 0 {
		rest = rest[:i]
	}
	return rest
}
