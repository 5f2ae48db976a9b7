// Package budget bounds what agents spend: a task's runs in all, followed
// as each run streams its cost and raised by a human's yes, and every run
// of the repository's in a local day.
package budget

import (
	"context"
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/ending"
)

// Limit is what t's runs may spend in all under c, in USD (0: no bound):
// config.BudgetFor; while a human's yes to going on past it waits for the
// next run, what t has spent plus as much again as its budget, the "more"
// its question named (raised: that run writes it on the task). The one
// place a budget is raised.
func Limit(t *task.Task, c config.Config) (usd float64, raised bool) {
	b := config.BudgetFor(t, c)
	if b > 0 && ending.BudgetRaised(t) {
		return t.Spent() + b, true
	}
	return b, false
}

// crossed is the cause a run is stopped with when its task's spend
// crosses its budget.
type crossed struct{ Spent, Budget float64 }

func (c *crossed) Error() string {
	return fmt.Sprintf("stopped at the task's budget: spent %s of %s", ending.USD(c.Spent), ending.USD(c.Budget))
}

// Meter follows a run of t as its agent tells what the run has cost so far
// (agent.Request.Spent) and stops it with a crossed cause once t's earlier
// runs and this one cost more than t's budget; nil when t has none.
func Meter(t *task.Task, c config.Config, stop context.CancelCauseFunc) func(agent.Spend) {
	limit, _ := Limit(t, c)
	if limit <= 0 {
		return nil
	}
	before := t.Spent()
	return func(s agent.Spend) {
		if spent := before + s.CostUSD; spent > limit {
			stop(&crossed{Spent: spent, Budget: limit}) // the first cause stays
		}
	}
}

// Stopped fills f with the facts of t's run that cause stopped at its
// budget, having cost spend, and reports whether it was stopped so.
func Stopped(f *ending.Facts, t *task.Task, cause error, spend agent.Spend) bool {
	var c *crossed
	if !errors.As(cause, &c) {
		return false
	}
	f.What, f.Spent, f.Budget = ending.BudgetCrossed, max(c.Spent, t.Spent()+spend.CostUSD), c.Budget
	return true
}

// Caused is a run's error err with the cause that stopped its context
// ctx, when that was its task's budget.
func Caused(ctx context.Context, err error) error {
	var c *crossed
	if err != nil && errors.As(context.Cause(ctx), &c) {
		return fmt.Errorf("%w: %w", c, err)
	}
	return err
}

// Raise writes on t the budget a human's yes to going on raised (Limit),
// as its next run begins.
func Raise(t *task.Task, c config.Config) {
	if b, raised := Limit(t, c); raised {
		t.Budget = b
	}
}

// Of is what a run cost: as its outcome or its error says.
func Of(out *agent.Outcome, err error) agent.Spend {
	var re *agent.RunError
	switch {
	case out != nil:
		return out.Spend
	case errors.As(err, &re):
		return re.Spend
	}
	return agent.Spend{}
}
