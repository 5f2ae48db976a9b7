package worker

import (
	"context"
	"errors"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// place runs t where Options.Place says; an outage it meets pauses claims.
func (w *worker) place(kill context.Context, t *task.Task) error {
	if done, err := w.tried(t); done { // its attempts run, not it
		return err
	}
	if w.opt.Place == nil {
		return w.work(kill, t)
	}
	err := w.opt.Place.Run(kill, t, w.claims)
	if re := (*agent.RunError)(nil); errors.As(err, &re) && re.Outage != "" {
		w.outage(re.Outage, re.Reason, "the runner", nil)
	}
	return err
}

// skip passes over the tasks that cool after a failed run, those placed
// elsewhere (open here while their pods run), and all but Options.Task.
func (w *worker) skip(id string) bool {
	return w.cooling(id) || w.isActive(id) || w.opt.Task != "" && id != w.opt.Task
}
