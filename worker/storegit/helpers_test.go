package storegit

import (
	"os"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

func TestMain(m *testing.M) {
	fakeapi.MemoryTemp() // no agent runs in a sandbox here
	os.Exit(fakeapi.Isolated(m.Run))
}

// sharedStore is newStore with bh's merge driver and a bare remote,
// origin, named by remote: in the config and holding its branch.
func sharedStore(t *testing.T) (*store.Store, string) {
	t.Helper()
	s := storetest.New(t)
	if err := RegisterMergeDriver(s.Root); err != nil {
		t.Fatal(err)
	}
	return storetest.Share(t, s)
}
