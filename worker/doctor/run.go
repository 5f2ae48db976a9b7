package doctor

import (
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// Run checks the store, leases, claims, parked work, worktrees, locks
// and temp files, and how this clone stands with the shared remote. With
// fix, it repairs what is safe to repair: what a running worker manages
// only while none runs here (Run then holds the worker lock).
func Run(s *store.Store, w Worker, fix bool) (Report, error) {
	d := &doctor{Worker: w, s: s, repo: w.Repo, fix: fix, broken: map[string]bool{}, tasks: map[string]*task.Task{}}
	d.checkNotLocks()
	busy, unlock, err := busyWorker(s.Local(), fix, w.Clock())
	if err != nil {
		return Report{}, err
	}
	if unlock != nil {
		defer unlock()
	}
	d.busy = busy
	// Worktrees go before parked refs: a worktree's changes count as saved
	// while its parked ref still holds them.
	// Git's own locks go before anything that runs git: a stale one fails it;
	// so do half-made worktrees, which fail git fetch and gc.
	for _, check := range []func() error{d.checkStore, d.checkOwnFiles, d.checkConfig, d.checkSandbox, d.checkAgentStarts, d.checkGitLocks, d.checkHalfMade, d.connect,
		d.checkLeases, d.checkClaims,
		d.checkWorktrees, d.checkRunning, d.checkPool, d.checkParked, d.checkLocks, d.checkTaskState, d.checkRegistry} {
		if err := check(); err != nil {
			return Report{Findings: d.out}, err
		}
	}
	return Report{Findings: d.out}, nil
}
