// Package crash holds the crash-point test of bh worker (crash_test.go):
// the heaviest of bh's end-to-end tests, in a test binary of its own.
package crash

import (
	"encoding/json"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/task"
)

func TestMain(m *testing.M) {
	fakeapi.MemoryTemp() // no agent here runs in a sandbox
	e2e.Main(m, cmd.Main)
}

// bhE2E runs bh in a directory, as a program.
var bhE2E = e2e.Process

// taskID is the id of the task titled title.
func taskID(t testing.TB, dir, title string) string {
	t.Helper()
	var tasks []task.Task
	if err := json.Unmarshal([]byte(bhE2E(t, dir, "list", "--all", "--json")), &tasks); err != nil {
		t.Fatal(err)
	}
	for _, tk := range tasks {
		if tk.Title == title {
			return tk.ID
		}
	}
	t.Fatalf("no task %q", title)
	return ""
}
