package worker

import (
	"context"
	"fmt"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/notify"
)

// notify sends the event name for t as it stands now, linked to the task's
// page when bh serve has run. input.requested goes out once per question
// (see claimAsked). Delivery happens in the background; without a target
// listening to name, nothing happens.
func (w *worker) notify(name string, t *task.Task) {
	if t == nil || !w.notifier.Wants(name) {
		return
	}
	if name == notify.EventInputRequested {
		if keys := askedKeys(t); len(keys) > 0 && !w.claimAsked(t, keys) {
			return
		}
	}
	web, err := config.LoadWebConfig()
	if err != nil {
		w.warnf("notify: %v", err) // the notification goes without its link
	}
	w.notifier.Send(notify.FromTask(name, t, w.s.Root, web, w.clock()))
}

// openNotifier sets up the config's notifications unless the caller gave
// its own; it returns what closes them (flushing what is pending), a no-op
// for the caller's.
func (w *worker) openNotifier() (func(), error) {
	if w.notifier = w.opt.Notify; w.notifier != nil || len(w.s.Config.Notify) == 0 {
		return func() {}, nil
	}
	n, err := notify.New(w.s.Config.Notify, w.warnf)
	if err != nil {
		return nil, fmt.Errorf(".bh/config.yaml: %w", err)
	}
	w.notifier = n
	return w.closeNotifier, nil
}

// closeNotifier delivers what is still queued before the worker exits (bh
// worker --once ends right after its last run), waiting as long as the
// targets' own retries may take, and names what could not be delivered.
func (w *worker) closeNotifier() {
	_, bound := w.notifier.Flush()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	if err := w.notifier.Close(ctx); err != nil {
		w.warnf("%v", err)
	}
}
