package worker

import (
	"errors"
	"fmt"
	"slices"
	"strings"

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
// fetches and tries again.
func Sync(s *store.Store, remote string, push bool) (SyncResult, error) {
	unlock, err := landLock(s)
	if err != nil {
		return SyncResult{}, err
	}
	defer unlock()
	return syncLocked(s, remote, push)
}

// syncLocked is Sync under the landing lock.
func syncLocked(s *store.Store, remote string, push bool) (SyncResult, error) {
	var res SyncResult
	r, name, err := openRemote(s, remote)
	res.Remote = name
	if err != nil {
		return res, err
	}
	if res.Branch, err = r.CurrentBranch(); err != nil {
		return res, err
	}
	if res.Branch == "" {
		return res, errors.New("sync: HEAD is detached: check out the branch the tasks live on")
	}
	if err := r.RegisterMergeDriver(store.MergeDriver); err != nil {
		return res, err
	}
	if _, err := repairHalfMade(s, r, true); err != nil { // an older bh sync's, killed: fetch fails while it is there
		return res, fmt.Errorf("sync: %w", err)
	}
	// First a sync killed between moving the tree and the branch: else its
	// pulled files would look like changes of the user's (and of .bh's).
	if err := usertree.Of(r).Recover(); err != nil { // and a landing killed while it held the index
		return res, fmt.Errorf("sync: %w", err)
	}
	// Heartbeats alone are not committed (bookkeeping.go), unless the pull
	// changes those very files: then they go in this round's one commit.
	only, pending, err := bookkeepingOnly(s, r)
	if err != nil {
		return res, fmt.Errorf("sync: %w", err)
	}
	commit := func() error {
		c, err := usertree.Of(r).CommitStore(s.Dir, "bh: sync tasks")
		res.Committed = res.Committed || c
		pending = nil
		return err
	}
	if !only {
		if err := commit(); err != nil {
			return res, fmt.Errorf("sync: %w", err)
		}
	}
	before := answersHere(s)
	for try := 1; ; try++ {
		err := syncOnce(r, &res, push, func(base, theirs string) error {
			if len(pending) == 0 {
				return nil
			}
			if base == "" {
				return commit()
			}
			touched, err := r.ChangedPaths(base, theirs)
			for _, p := range pending {
				if err == nil && slices.Contains(touched, p) {
					return commit()
				}
			}
			return err
		})
		if err == nil {
			res.Lost = lostAnswers(s, before)
		}
		if err == nil || !errors.Is(err, git.ErrStale) && !errors.Is(err, usertree.ErrTargetMoved) || try == syncTries {
			return res, err
		}
	}
}

// syncOnce is one fetch, integrate and push; beforePull hears what the
// pull brings (from the merge base to theirs) before it changes anything.
func syncOnce(r *git.Repo, res *SyncResult, push bool, beforePull func(base, theirs string) error) error {
	if err := r.Fetch(res.Remote, sharedRefspecs(res.Remote)...); err != nil {
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
		} else {
			res.Pulled += behind
		}
	}
	if !push {
		return nil
	}
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

// remoteRefs is where bh keeps its copies of other machines' refs: never
// fetched over its own, so a ref not pushed yet is never lost.
const remoteRefs = "refs/bh/remote/"

// sharedRefspecs fetch what a sync shares: the remote's branches, and the
// parked work and sessions other machines pushed, into bh's copies.
func sharedRefspecs(remote string) []string {
	return []string{"+refs/heads/*:refs/remotes/" + remote + "/*",
		"+refs/bh/parked/*:" + remoteCopy("refs/bh/parked/*"), "+refs/bh/sessions/*:" + remoteCopy("refs/bh/sessions/*")}
}

// remoteName is the remote to share through: the one given, the
// config's, or origin.
func remoteName(s *store.Store, remote string) string {
	switch {
	case remote != "":
		return remote
	case s.Config.Remote != "":
		return s.Config.Remote
	}
	return "origin"
}

// openRemote opens s's repository and names its remote (remoteName);
// NoRemoteError when the repository has no such remote.
func openRemote(s *store.Store, remote string) (*git.Repo, string, error) {
	remote = remoteName(s, remote)
	r, err := git.Open(s.Root)
	if err != nil {
		return nil, remote, err
	}
	if r.RemoteURL(remote) == "" {
		return nil, remote, &NoRemoteError{Remote: remote}
	}
	return r, remote, nil
}

// remoteCopy is where bh keeps its copy of another machine's ref
// (refs/bh/parked/x → refs/bh/remote/parked/x).
func remoteCopy(ref string) string { return remoteRefs + strings.TrimPrefix(ref, "refs/bh/") }

// NoRemoteError is a sync with no remote to sync with.
type NoRemoteError struct{ Remote string }

func (e *NoRemoteError) Error() string { return "no git remote named " + e.Remote }
