package git

import (
	"slices"
	"sync"
)

// A step that asks about the worktrees several times in a row (a task
// taking a pool slot: which is free, is it registered, is it held) shares
// one `git worktree list` between its questions (ShareListing). bh's git
// commands that may change the answer (all but the read-only ones) drop
// it, before and after they run: a shared listing is never older than
// bh's last change, only than a change someone else makes within the step.
type listing struct {
	mu     sync.Mutex
	scopes int
	list   []WorktreeEntry
	gen    int // how many times it was dropped: a listing git made across a drop is not kept
}

// ShareListing makes the worktree listing one until done is called.
func (r *Repo) ShareListing() (done func()) {
	l := r.listing
	if l == nil {
		return func() {}
	}
	l.mu.Lock()
	l.scopes++
	l.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			if l.scopes--; l.scopes == 0 {
				l.list = nil
			}
			l.mu.Unlock()
		})
	}
}

// shared is the listing shared now, or nil and the generation a listing
// made now is of (for keep).
func (l *listing) shared() ([]WorktreeEntry, int) {
	if l == nil {
		return nil, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.list), l.gen
}

// keep shares list, listed in generation gen, if a step asked for it and
// nothing dropped it since.
func (l *listing) keep(list []WorktreeEntry, gen int) {
	if l == nil {
		return
	}
	l.mu.Lock()
	if l.scopes > 0 && l.gen == gen {
		l.list = slices.Clone(list)
	}
	l.mu.Unlock()
}

// drop forgets the shared listing: a git command that may change it runs.
func (l *listing) drop(args []string) {
	if l == nil || len(args) > 0 && args[0] == "--no-optional-locks" {
		return
	}
	l.mu.Lock()
	l.list = nil
	l.gen++
	l.mu.Unlock()
}
