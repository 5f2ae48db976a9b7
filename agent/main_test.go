package agent

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
)

// The test binary doubles as a worker that runs an agent, for tests of
// what happens to the agent when its worker dies: with helperEnv set to a
// shell script, it runs the script through proc in $helperDirEnv, prints
// the agent's process group id and waits.
const (
	helperEnv    = "BH_AGENT_TEST_WORKER_SCRIPT"
	helperDirEnv = "BH_AGENT_TEST_WORKER_DIR"
)

func TestMain(m *testing.M) {
	if script := os.Getenv(helperEnv); script != "" {
		os.Exit(helperWorker(script, os.Getenv(helperDirEnv)))
	}
	os.Exit(fakeapi.Isolated(m.Run))
}

func helperWorker(script, dir string) int {
	p := proc{argv: []string{"/bin/sh", "-c", script}, dir: dir, started: func(pgid int) { fmt.Println(pgid) }}
	if _, err := p.run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
