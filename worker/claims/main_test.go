package claims

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task/store"
)

// The test binary doubles as a second bh process, so that claims are
// tested across real processes. BH_CLAIMS_HELPER picks the role.
func TestMain(m *testing.M) {
	switch os.Getenv("BH_CLAIMS_HELPER") {
	case "":
		fakeapi.MemoryTemp() // no agent runs in a sandbox here
		os.Exit(fakeapi.Isolated(m.Run))
	case "claim":
		os.Exit(helperClaim())
	}
	fmt.Fprintln(os.Stderr, "unknown helper")
	os.Exit(2)
}

// helperClaim races for the next task and prints what it won.
func helperClaim() int {
	s, err := store.Find(".")
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	t, err := Next(s, nil, HandLease(now(s)), nil, nil)
	switch {
	case errors.Is(err, ErrNothingReady):
		fmt.Println("none")
	case err != nil:
		fmt.Println("error:", err)
		return 1
	default:
		fmt.Println("won", t.ID)
	}
	return 0
}
