package worker

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/bh-tracker/bh/worker/jail"
	"github.com/bh-tracker/bh/worker/journal"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/doctor"
	"github.com/bh-tracker/bh/worker/git"
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
	return doctor.Worker{
		Repo: r, Clock: w.clock,
		LeaseTTL:    w.opt.LeaseTTL,
		CheckConfig: w.configHint,
		AgentStarts: w.agentStarts,
		Dead:        func(t *task.Task) bool { return w.dead(*t.Lease) && !w.foreignAlive(t) },
		Recover: func() error {
			var errs []error
			err := w.recoverDead(func(e runEnd) { errs = append(errs, e.err) })
			return errors.Join(append(errs, err)...)
		},
		Journaled: func() ([]string, error) { return journal.List(s) },
	}, nil
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

// agentStarts calls each with every agent in use that bh starts by path,
// and the preflight's refusal when it cannot start: not found, a broken
// release, or out of the sandbox's reach.
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
		p, isP := r.(preflighter)
		if !ok || !isP {
			continue
		}
		_, err := p.Preflight(context.Background()) // the worker's own check: where it exits 3, doctor says so
		if err == nil && filepath.IsAbs(jail.LookPath(cfg.Binary)) {
			err = w.startsInSandbox(context.Background(), cfg)
		}
		each(cfg.Binary, err)
	}
	return nil
}
