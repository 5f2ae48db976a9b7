package worker

import (
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/storegit"
)

// Sync is storegit.Sync (bh sync) under the landing lock.
func Sync(s *store.Store, remote string, push bool) (storegit.SyncResult, error) {
	unlock, err := landLock(s)
	if err != nil {
		return storegit.SyncResult{}, err
	}
	defer unlock()
	return storegit.Sync(s, remote, push)
}
