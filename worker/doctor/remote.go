package doctor

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/storegit"
)

// connect checks git's side of sharing: bh's merge driver, the remote,
// and how the checked-out branch and .bh/ stand with it. Its fetch brings
// what the claims and parked checks read. A branch out of step is a
// problem only where tasks are shared (remote: in the config); elsewhere
// it is said for information.
func (d *doctor) connect() error {
	defer d.checkDeps() // once the remote's tasks are known: a dependency may be one of them
	if d.repo.ConfigValue("merge."+store.MergeDriver+".driver") == "" {
		d.found(Finding{Check: "remote", Status: Error, Subject: "merge." + store.MergeDriver,
			Message: "git does not know bh's merge driver: task files changed on two branches would conflict line by line",
			Fix:     "register it in the repository's git config, as bh init does"},
			func() error { return storegit.RegisterMergeDriver(d.s.Root) })
	}
	name := storegit.RemoteName(d.s, "")
	if d.repo.RemoteURL(name) == "" {
		if d.s.Config.Remote != "" {
			d.found(Finding{Check: "remote", Status: Error, Subject: name,
				Message: "remote: in .bh/config.yaml names " + name + ", which git does not know",
				Fix:     "git remote add " + name + " <url>, or correct remote: in .bh/config.yaml"}, nil)
		} else {
			d.ok("remote", "no git remote: nothing shared to check")
		}
		return nil
	}
	d.remote = name
	if err := d.repo.Fetch(name, append(storegit.SharedRefspecs(name), claims.Refspec)...); err != nil {
		d.found(Finding{Check: "remote", Status: Warn, Subject: name,
			Message: fmt.Sprintf("%v: its claims and parked work, and how this branch stands, were not checked", err),
			Fix:     "check the network and the remote's URL (git remote -v), then run bh doctor again"}, nil)
		return nil
	}
	d.online = true
	return d.inStep()
}

// inStep compares the checked-out branch and .bh/ with the remote.
func (d *doctor) inStep() error {
	level := OK
	if d.s.Config.Remote != "" {
		level = Warn
	}
	sync := "bh sync: it commits .bh/ (bh's files only), pulls with rebase (task files merge field by field) and pushes"
	branch, err := d.repo.CurrentBranch()
	if err != nil || branch == "" {
		d.found(Finding{Check: "remote", Status: level, Subject: "HEAD",
			Message: "HEAD is detached: bh sync has no branch to share", Fix: "check out the branch the tasks live on"}, nil)
		return err
	}
	if d.theirs, err = d.repo.RemoteTip(d.remote, branch); err != nil {
		return err
	}
	before := len(d.out)
	if d.theirs == "" {
		d.found(Finding{Check: "remote", Status: level, Subject: branch,
			Message: fmt.Sprintf("%s is not on %s yet", branch, d.remote), Fix: sync}, nil)
	} else {
		tip, err := d.repo.BranchTip(branch)
		if err != nil {
			return err
		}
		ahead, behind, err := d.repo.Ahead(tip, d.theirs)
		if err != nil {
			return err
		}
		if ahead+behind > 0 {
			d.found(Finding{Check: "remote", Status: level, Subject: branch,
				Message: fmt.Sprintf("%s is %d commits ahead of and %d behind %s/%s", branch, ahead, behind, d.remote, branch),
				Fix:     sync}, nil)
		}
	}
	changed, err := d.repo.StoreChanges(d.s.Dir)
	if err != nil {
		return err
	}
	if only, _, err := storegit.BookkeepingOnly(d.s, d.repo); err != nil || only {
		changed = nil // heartbeats: bh sync leaves them uncommitted too
	}
	if len(changed) > 0 {
		d.found(Finding{Check: "remote", Status: level, Subject: ".bh",
			Message: fmt.Sprintf("%d uncommitted changes under .bh/: other clones do not see them", len(changed)), Fix: sync}, nil)
	}
	if len(d.out) == before {
		d.ok("remote", fmt.Sprintf("%s is in step with %s/%s", branch, d.remote, branch))
	}
	return nil
}

// checkClaims reads the remote's claims as just fetched: a claim this
// clone holds for a task not in progress here is released, one of a task
// that exists nowhere is deleted once no one holds it (compare-and-swap:
// only as it was read), and a held claim that ran out is named.
func (d *doctor) checkClaims() error {
	if !d.online {
		return nil
	}
	c := claims.NewRemote(d.repo, d.remote, d.LeaseTTL, d.Clock)
	refs, err := d.repo.Refs(claims.Seen)
	if err != nil {
		return err
	}
	fine := 0
	for _, ref := range slices.Sorted(maps.Keys(refs)) {
		id, oid := strings.TrimPrefix(ref, claims.Seen), refs[ref]
		cl := claim{id: id, ref: claims.Ref(id), oid: oid}
		cl.RemoteClaim, cl.err = c.Read(oid)
		if !d.claimFinding(c, cl) {
			fine++
		}
	}
	if fine == len(refs) {
		d.ok("claims", fmt.Sprintf("%d claims on %s, all in order", fine, d.remote))
	}
	return nil
}

// claim is a claim on the shared remote, as last fetched.
type claim struct {
	id, ref, oid string
	err          error // unreadable
	*claims.RemoteClaim
}

// claimFinding reports a claim out of order, and whether it was.
func (d *doctor) claimFinding(c *claims.Remote, cl claim) bool {
	f := Finding{Check: "claims", Status: Warn, Subject: cl.ref}
	if cl.err != nil {
		f.Message, f.Fix = fmt.Sprintf("unreadable: %v", cl.err), "look at it with git show "+cl.oid
		d.found(f, nil)
		return true
	}
	t, held := d.tasks[cl.id], cl.State == claims.Held
	switch {
	case t == nil && d.missing(cl.id):
		d.orphanClaim(f, cl)
	case held && t != nil && t.State != task.InProgress && cl.Clone == d.repo.Root && cl.Host == claims.Hostname():
		f.Message = fmt.Sprintf("held by this clone (%s), but the task is %s here", cl.Worker, t.State)
		f.Fix = "release it (done, for a closed task), so that the task can run anywhere"
		state := map[bool]string{true: claims.Done, false: claims.Released}[t.State == task.Closed]
		d.guarded(f, func() error {
			return c.Push(cl.id, cl.oid, state, task.Lease{Worker: cl.Worker, Host: cl.Host, PID: cl.PID})
		})
	case held && d.Clock().After(cl.Expires):
		f.Message = "held by " + cl.Describe() + ": it ran out " + d.Clock().Sub(cl.Expires).Round(time.Second).String() + " ago"
		f.Fix = "none needed: a worker anywhere takes the task over with its parked work; if " + cl.Host + " is up, look at its worker"
		d.found(f, nil)
	default:
		return false
	}
	return true
}

// orphanClaim is a claim of a task that exists neither here nor on the
// remote: deleted unless held.
func (d *doctor) orphanClaim(f Finding, cl claim) {
	if cl.State == claims.Held {
		// Its holder may yet push the task, or renew: only a human
		// knows that machine is gone for good.
		f.Message = "held by " + cl.Describe() + ", for a task that exists neither here nor on " + d.remote
		f.Fix = "if " + cl.Host + " is gone for good: git push " + d.remote + " :" + cl.ref
		d.found(f, nil)
		return
	}
	f.Message = fmt.Sprintf("%s, for a task that exists neither here nor on %s", cl.State, d.remote)
	f.Fix = "delete it on " + d.remote + " (compare-and-swap: only as it was read)"
	d.found(f, func() error {
		if err := d.repo.PushCAS(d.remote, cl.ref, "", cl.oid); err != nil {
			return err
		}
		return d.repo.DeleteRef(claims.Seen + cl.id)
	})
}
