// Package storegit keeps the task store in git: it shares .bh/ with the
// remote (bh sync), commits it (bh init's files, no commit for heartbeats
// alone), and keeps bh's own copy of every file it writes under
// refs/bh/local/store, so that the user's git clean or stash loses none.
package storegit

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/usertree"
)

// SyncResult says what a sync did.
type SyncResult struct {
	Remote    string `json:"remote"`
	Branch    string `json:"branch"`
	Committed bool   `json:"committed"` // pending task changes were committed
	Pulled    int    `json:"pulled"`    // commits that came from the remote
	Pushed    int    `json:"pushed"`    // commits that went to it
	Offline   bool   `json:"offline"`   // the remote was unreachable (--no-push goes on without it)
	// Answers given here that the merge set aside for another clone's.
	Lost []LostAnswer `json:"lostAnswers,omitempty"`
}

// syncTries bounds the fetch-integrate-push rounds when other machines
// keep pushing in between.
const syncTries = 5

// RegisterMergeDriver makes git merge task files with bh merge-file.
func RegisterMergeDriver(root string) error {
	r, err := git.Open(root)
	if err != nil {
		return err
	}
	return r.RegisterMergeDriver(store.MergeDriver)
}

// Sync shares the store through git: it commits pending .bh changes (bh's
// files only) on the checked-out branch, pulls with rebase (task files
// merge field by field) and, with push, pushes. A push that loses a race
// fetches and tries again. The caller holds the landing lock.
func Sync(s *store.Store, remote string, push bool) (SyncResult, error) {
	var res SyncResult
	r, err := prepare(s, remote, &res)
	if err != nil {
		return res, err
	}
	// Heartbeats alone are not committed (bookkeeping.go), unless the pull
	// changes those very files: then they go in this round's one commit.
	only, pending, err := BookkeepingOnly(s, r)
	if err != nil {
		return res, fmt.Errorf("sync: %w", err)
	}
	c := &storeCommit{r: r, dir: s.Dir, res: &res, pending: pending}
	if !only {
		if err := c.commit(); err != nil {
			return res, fmt.Errorf("sync: %w", err)
		}
	}
	before := answersHere(s)
	for try := 1; ; try++ {
		err := syncOnce(r, &res, push, s.Config.Remote == "", c.beforePull)
		if err == nil {
			res.Lost = lostAnswers(s, before)
		}
		if err == nil || !errors.Is(err, git.ErrStale) && !errors.Is(err, usertree.ErrTargetMoved) || try == syncTries {
			return res, err
		}
	}
}

// prepare opens s's repository for a sync, names its remote and branch
// in res, and finishes what a sync or landing killed midway left.
func prepare(s *store.Store, remote string, res *SyncResult) (*git.Repo, error) {
	r, name, err := OpenRemote(s, remote)
	res.Remote = name
	if err != nil {
		return nil, err
	}
	if res.Branch, err = r.CurrentBranch(); err != nil {
		return nil, err
	}
	if res.Branch == "" {
		return nil, errors.New("sync: HEAD is detached: check out the branch the tasks live on")
	}
	if err := r.RegisterMergeDriver(store.MergeDriver); err != nil {
		return nil, err
	}
	// First a sync killed between moving the tree and the branch: else its
	// pulled files would look like changes of the user's (and of .bh's).
	if err := usertree.Of(r).Recover(); err != nil { // and a landing killed while it held the index
		return nil, fmt.Errorf("sync: %w", err)
	}
	return r, nil
}

// storeCommit commits the store's pending changes once: at once, or, when
// they are heartbeats alone (pending), only if a pull needs their files.
type storeCommit struct {
	r       *git.Repo
	dir     string
	res     *SyncResult
	pending []string
}

func (c *storeCommit) commit() error {
	done, err := usertree.Of(c.r).CommitStore(c.dir, "bh: sync tasks")
	c.res.Committed = c.res.Committed || done
	c.pending = nil
	return err
}

// beforePull commits the heartbeats when the pull (from base to theirs)
// changes their files.
func (c *storeCommit) beforePull(base, theirs string) error {
	if len(c.pending) == 0 {
		return nil
	}
	if base == "" {
		return c.commit()
	}
	touched, err := c.r.ChangedPaths(base, theirs)
	for _, p := range c.pending {
		if err == nil && slices.Contains(touched, p) {
			return c.commit()
		}
	}
	return err
}

// syncOnce is one fetch, integrate and push (with parked, this clone's
// parked work first: pushParked); beforePull hears what the pull brings
// (from the merge base to theirs) before it changes anything.
func syncOnce(r *git.Repo, res *SyncResult, push, parked bool, beforePull func(base, theirs string) error) error {
	if err := r.Fetch(res.Remote, SharedRefspecs(res.Remote)...); err != nil {
		if push {
			return fmt.Errorf("sync: %w", err)
		}
		res.Offline = true // offline: integrate what an earlier fetch brought
	}
	theirs, err := r.RemoteTip(res.Remote, res.Branch)
	if err != nil {
		return err
	}
	if theirs != "" {
		if err := pull(r, res, theirs, beforePull); err != nil {
			return err
		}
	}
	if !push {
		return nil
	}
	if parked {
		if err := pushParked(r, res.Remote); err != nil {
			return fmt.Errorf("sync: push parked work: %w", err)
		}
	}
	return pushBranch(r, res, theirs)
}

// pushParked pushes this clone's parked work (refs/bh/parked/*) that the
// remote does not hold as it is here, before the task files that wait on
// it: a clone then has it after its own bh sync, and its doctor does not
// report it gone. Without remote: (with one, each task's claim publishes
// its own, worker/claims) no other machine works a task this clone parked,
// so this clone's copy is the one; each still goes with a lease on the
// copy fetched just before, so that a push made since is never overwritten
// (ErrStale: the sync fetches and tries again).
func pushParked(r *git.Repo, remote string) error {
	mine, err := r.Refs("refs/bh/parked/")
	if err != nil {
		return err
	}
	theirs, err := r.Refs(git.RemoteCopy("refs/bh/parked/"))
	if err != nil {
		return err
	}
	for _, ref := range slices.Sorted(maps.Keys(mine)) {
		had := theirs[git.RemoteCopy(ref)]
		if had == mine[ref] {
			continue
		}
		if err := r.PushCAS(remote, ref, mine[ref], had); err != nil {
			return err
		}
		if err := r.SetRef(git.RemoteCopy(ref), mine[ref], "bh sync: pushed"); err != nil {
			return err
		}
	}
	return nil
}

// pull integrates theirs into the checked-out branch.
func pull(r *git.Repo, res *SyncResult, theirs string, beforePull func(base, theirs string) error) error {
	tip, err := r.BranchTip(res.Branch)
	if err != nil {
		return err
	}
	_, behind, err := r.Ahead(tip, theirs)
	if err != nil {
		return err
	}
	if behind > 0 {
		base, err := r.MergeBase(tip, theirs)
		if err == nil {
			err = beforePull(base, theirs)
		}
		if err != nil {
			return fmt.Errorf("sync: %w", err)
		}
	}
	if err := usertree.Of(r).Integrate(res.Branch, theirs); err != nil {
		return fmt.Errorf("sync: pull %s/%s: %w", res.Remote, res.Branch, err)
	}
	res.Pulled += behind
	return nil
}

// pushBranch pushes the branch when it is ahead of theirs.
func pushBranch(r *git.Repo, res *SyncResult, theirs string) error {
	tip, err := r.BranchTip(res.Branch)
	if err != nil || tip == theirs {
		return err
	}
	ahead, _, err := r.Ahead(tip, theirs)
	if err != nil {
		return err
	}
	if err := r.PushBranch(res.Remote, res.Branch); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	res.Pushed += ahead
	return nil
}

// SharedRefspecs fetch what a sync shares: the remote's branches, and the
// parked work and sessions other machines pushed, into bh's copies.
func SharedRefspecs(remote string) []string {
	return []string{"+refs/heads/*:refs/remotes/" + remote + "/*",
		"+refs/bh/parked/*:" + git.RemoteCopy("refs/bh/parked/*"), "+refs/bh/sessions/*:" + git.RemoteCopy("refs/bh/sessions/*"),
		"+refs/bh/limits/*:" + git.RemoteCopy("refs/bh/limits/*")}
}

// RemoteName is the remote to share through: the one given, the
// config's, or origin.
func RemoteName(s *store.Store, remote string) string {
	return cmp.Or(remote, s.Config.Remote, "origin")
}

// OpenRemote opens s's repository and names its remote (RemoteName);
// NoRemoteError when the repository has no such remote.
func OpenRemote(s *store.Store, remote string) (*git.Repo, string, error) {
	remote = RemoteName(s, remote)
	r, err := git.Open(s.Root)
	if err != nil {
		return nil, remote, err
	}
	if r.RemoteURL(remote) == "" {
		return nil, remote, &NoRemoteError{Remote: remote}
	}
	return r, remote, nil
}

// NoRemoteError is a sync with no remote to sync with.
type NoRemoteError struct{ Remote string }

func (e *NoRemoteError) Error() string { return "no git remote named " + e.Remote }
