package sandbox

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/agent/proc/proctest"
)

// pushEnv makes the test binary the terminal attack (proctest.PushInput),
// writing what it did to the file the variable names.
const pushEnv = "BH_SANDBOX_TEST_PUSH"

// TestMain runs the tests in a home of their own (fakeapi.Isolated).
func TestMain(m *testing.M) {
	if out := os.Getenv(pushEnv); out != "" {
		lines := proctest.PushInput("touch " + out + ".canary\n")
		if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(fakeapi.Isolated(m.Run))
}

// needBwrap is bubblewrap's path, and fails the test where it cannot run.
func needBwrap(t *testing.T) string {
	t.Helper()
	st := Detect()
	if st.Bwrap == "" {
		t.Fatal("bubblewrap is needed: ", st.Why)
	}
	return st.Bwrap
}
