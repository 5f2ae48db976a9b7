package config

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/task"
)

// Policy resolves t's human-in-the-loop settings against c. A bad value does not stop the
// work: it falls back to the default, and the error says what was wrong.
func Policy(t *task.Task, c Config) (task.HumanPolicy, error) {
	p := task.HumanPolicy{Allowed: t.Human == nil || *t.Human, Timeout: task.DefaultHumanTimeout,
		OnTimeout: task.OnTimeoutRemind, BelowConfidence: c.Gate.BelowConfidence}
	var errs []error
	for _, d := range []Duration{c.HumanTimeout, ParseDuration(t.HumanTimeout)} {
		if d.IsZero() {
			continue
		}
		if d.Check() != nil {
			errs = append(errs, fmt.Errorf("humanTimeout %q: want a positive duration such as 24h", d))
			continue
		}
		p.Timeout = d.D
	}
	for _, s := range []string{c.OnTimeout, t.OnTimeout} {
		if s == "" {
			continue
		}
		if err := task.ValidOnTimeout(s); err != nil {
			errs = append(errs, err)
			continue
		}
		p.OnTimeout = s
	}
	switch t.Gate {
	case "":
	case task.GateApproval:
		p.Approval = true
	case task.GateNone:
		p.NoGate = true
	default:
		errs = append(errs, fmt.Errorf("gate %q: want %s or %s", t.Gate, task.GateApproval, task.GateNone))
	}
	if len(errs) > 0 {
		return p, fmt.Errorf("%s: %w", t.ID, joinErrs(errs))
	}
	return p, nil
}

// Delivery is where t's finished work goes: the branch to land on ("" for
// the one checked out in the main tree) and how (LandMerge or LandBranch).
func Delivery(t *task.Task, c Config) (target, land string) {
	return cmp.Or(t.Target, c.Target), cmp.Or(t.Land, c.Land, task.LandMerge)
}

func joinErrs(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	msg := errs[0].Error()
	for _, e := range errs[1:] {
		msg += "; " + e.Error()
	}
	return errors.New(msg)
}

// BudgetFor is what t's runs may spend in all, in USD: its own budget,
// else its type's (budget.types), else budget.perTask; 0: no bound.
func BudgetFor(t *task.Task, c Config) float64 {
	return cmp.Or(t.Budget, c.Budget.Types[string(t.Type)], c.Budget.PerTask)
}
