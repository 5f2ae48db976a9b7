package worker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bh-tracker/bh/worker/jail"
	"github.com/bh-tracker/bh/worker/landing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/doctor"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/storegit"
	"github.com/gofrs/flock"
)

// ForDoctor is what bh doctor asks of the worker in s's repository: a
// worker that runs no agent, enough to recover, with the worker's own
// rules for leases, claims, bh's copies of the store and its folders.
func ForDoctor(s *store.Store) (doctor.Worker, error) {
	w := &worker{s: s, opt: Options{Name: "doctor"}, agent: "doctor", active: map[string]bool{}}
	w.opt.defaults(s.Config)
	r, err := git.Open(s.Root)
	if err != nil {
		return doctor.Worker{}, err
	}
	w.repo = r
	if s.Config.Remote != "" {
		w.claims = openClaims(s, r, s.Config.Remote, w.opt.LeaseTTL, w.now, w.warnf)
	}
	remote := storegit.RemoteName(s, "")
	c := claims.NewRemote(r, remote, w.opt.LeaseTTL, w.now)
	kp := storegit.NewKeeper(s, func(error) {})
	return doctor.Worker{
		Repo: r, Host: claims.Hostname(), HandWorker: claims.HandWorker, Clock: w.clock, Remote: remote,
		WorktreeDir: WorktreeDir(s, r.CommonDir()), PoolDir: PoolDir(s, r.CommonDir()), PoolOn: poolOn(s),
		LandLockFile: landing.LockFile,
		StateDirs:    [][2]string{{"agent state", jail.AgentStatesOf(s.Root, r.CommonDir())}, {"outbox", jail.OutboxesOf(s, r.CommonDir())}},
		Branch:       Branch,
		WorktreePath: func(id string) string { return WorktreePath(s, r, id) },
		InPool:       func(path string) bool { return inPool(s, r, path) },
		RemoteCopy:   git.RemoteCopy,
		Busy:         func(take bool) (*doctor.Holder, func(), error) { return busy(s.Dir, take, w.now()) },
		CheckConfig:  w.configHint,
		Sandbox:      func() (bool, bool, string, error) { return sandboxHinted(s) },
		AgentStarts:  w.agentStarts,
		Dead:         func(t *task.Task) bool { return w.dead(*t.Lease) && !w.foreignAlive(t) },
		Recover: func() error {
			var errs []error
			err := w.recoverDead(func(e runEnd) { errs = append(errs, e.err) })
			return errors.Join(append(errs, err)...)
		},
		Journaled:           func() ([]string, error) { return journaled(s) },
		LandLock:            func() (func(), error) { return landing.Lock(s) },
		HalfMade:            func() ([]string, error) { return halfMade(s, r) },
		PoolSlots:           func() ([]git.Linked, error) { return poolSlots(s, r) },
		RegisterMergeDriver: func() error { return storegit.RegisterMergeDriver(s.Root) },
		Fetch:               func() error { return r.Fetch(remote, append(storegit.SharedRefspecs(remote), claims.Refspec)...) },
		BookkeepingOnly:     func() (bool, error) { only, _, err := storegit.BookkeepingOnly(s, r); return only, err },
		Claims:              func() ([]doctor.Claim, error) { return seenByDoctor(r, c) },
		ReleaseClaim: func(cl doctor.Claim, done bool) error {
			state := map[bool]string{true: claims.Done, false: claims.Released}[done]
			return c.Push(cl.ID, cl.OID, state, task.Lease{Worker: cl.Worker, Host: cl.Host, PID: cl.PID})
		},
		DeleteClaim: func(cl doctor.Claim) error {
			if err := r.PushCAS(remote, cl.Ref, "", cl.OID); err != nil {
				return err
			}
			return r.DeleteRef(claims.Seen + cl.ID)
		},
		Kept: keptForDoctor(kp),
	}, nil
}

// busy is the worker holding .bh/worker.lock, nil when none does; with
// take, the lock is taken when free.
func busy(dir string, take bool, now time.Time) (*doctor.Holder, func(), error) {
	path := filepath.Join(dir, "worker.lock")
	if take {
		unlock, err := claims.LockWorker(dir, now)
		var be *claims.BusyError
		if errors.As(err, &be) {
			return &be.Holder, nil, nil
		}
		return nil, unlock, err
	}
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, nil // no lock file: the doctor's checkNotLocks says so
	}
	l := flock.New(path)
	ok, err := l.TryLock()
	if err != nil {
		return nil, nil, fmt.Errorf("worker lock: %w", err)
	}
	if ok {
		l.Unlock()
		return nil, nil, nil
	}
	h := claims.ReadHolder(path)
	return &h, nil, nil
}

// configHint is checkConfig, with the hint of a refusal.
func (w *worker) configHint() (string, error) {
	err := w.checkConfig()
	var pe *PreflightError
	if errors.As(err, &pe) {
		return pe.Hint(), err
	}
	return "", err
}

// sandboxHinted is jail.Status whose every error says what to do.
func sandboxHinted(s *store.Store) (on, chosen bool, why string, err error) {
	on, chosen, why, err = jail.Status(s.Config)
	var se *jail.SandboxError
	if err != nil && !errors.As(err, &se) {
		err = &PreflightError{Err: err, Advice: "fix " + jail.Env}
	}
	return on, chosen, why, err
}

// agentStarts calls each with every agent in use that bh starts by path,
// and the preflight's refusal when the sandbox cannot start it.
func (w *worker) agentStarts(each func(binary string, refused error)) error {
	if w.runner == nil {
		r, err := NewRunner(w.s.Config.Agent, nil)
		if err != nil {
			return nil // the doctor's checkConfig says so
		}
		w.runner = r
	}
	runners, err := w.agentsInUse()
	if err != nil {
		return nil
	}
	for _, r := range runners {
		cfg, ok := agentProgram(r)
		if path := jail.LookPath(cfg.Binary); !ok || !filepath.IsAbs(path) {
			continue
		} else if _, err := os.Stat(path); err != nil {
			continue
		}
		var pe *PreflightError
		switch err := w.startsInSandbox(context.Background(), cfg); {
		case errors.As(err, &pe):
			each(cfg.Binary, pe)
		case err != nil:
			return err
		default:
			each(cfg.Binary, nil)
		}
	}
	return nil
}

// seenByDoctor reads the remote's claims as last fetched, by task id.
func seenByDoctor(r *git.Repo, c *claims.Remote) ([]doctor.Claim, error) {
	refs, err := r.Refs(claims.Seen)
	if err != nil {
		return nil, err
	}
	out := make([]doctor.Claim, 0, len(refs))
	for ref, oid := range refs {
		id := strings.TrimPrefix(ref, claims.Seen)
		dc := doctor.Claim{ID: id, Ref: claims.Ref(id), OID: oid}
		if cl, err := c.Read(oid); err != nil {
			dc.Err = err
		} else {
			dc.Held, dc.State, dc.Worker, dc.Host, dc.Clone, dc.PID, dc.Expires, dc.Holder =
				cl.State == claims.Held, cl.State, cl.Worker, cl.Host, cl.Clone, cl.PID, cl.Expires, cl.Describe()
		}
		out = append(out, dc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// keptForDoctor is the doctor's Kept: ok is false without a repository.
func keptForDoctor(kp *storegit.Keeper) func(record bool) ([]doctor.Lost, bool, error) {
	return func(record bool) ([]doctor.Lost, bool, error) {
		lost, err := kp.Compare(record)
		if errors.Is(err, storegit.ErrNoKeep) {
			return nil, false, nil
		}
		if err != nil {
			return nil, true, err
		}
		out := make([]doctor.Lost, len(lost))
		for i, l := range lost {
			id, _ := l.TaskID()
			out[i] = doctor.Lost{Rel: l.Rel, Task: id, Missing: l.Missing, Restore: func() error { return kp.Restore([]storegit.Lost{l}) }}
		}
		if len(lost) == 0 && record {
			kp.SaveStamp()
		}
		return out, true, nil
	}
}
