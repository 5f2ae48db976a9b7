package worker

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
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
	if name == task.EventInputRequested {
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

// A question's input.requested goes out once, however often workers stop,
// crash and start again. Before sending it the worker claims it by
// creating .git/bh/runs/<id>/notified/<question id> (O_EXCL: of two claims, one
// wins); a worker starting up announces the waiting questions nobody
// claimed, which a worker that died between parking a task and notifying
// left unsent. Claiming before sending makes a crash lose a notification
// rather than repeat it. Reminders need no claim: the write that records
// one also moves the question's expiry on (see onTimeout).

func notifiedDir(s *store.Store, id string) string { return store.RunDir(s, id, "notified") }

// askedKeys are the ids of the questions t waits on, those a claim can
// name (hand-written ids that are no file name are left out).
func askedKeys(t *task.Task) []string {
	var keys []string
	for _, q := range t.Pending() {
		if q.ID != "" && filepath.Base(q.ID) == q.ID && q.ID[0] != '.' {
			keys = append(keys, q.ID)
		}
	}
	return keys
}

// claimAsked claims t's waiting questions and says whether any was not
// claimed before. A claim that cannot be written is a warning, and the
// notification goes out: better twice than never.
func (w *worker) claimAsked(t *task.Task, keys []string) bool {
	dir := notifiedDir(w.s, t.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		w.warnf("%s: notify: %v", t.ID, err)
		return true
	}
	fresh := false
	for _, k := range keys {
		f, err := os.OpenFile(filepath.Join(dir, k), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		switch {
		case err == nil:
			f.Close()
			fresh = true
		case !errors.Is(err, fs.ErrExist):
			w.warnf("%s: notify: %v", t.ID, err)
			fresh = true
		}
	}
	return fresh
}

// announce sends input.requested for each waiting question that no worker
// claimed yet. It runs when the worker starts.
func (w *worker) announce() error {
	if !w.notifier.Wants(task.EventInputRequested) {
		return nil
	}
	tasks, _, err := w.s.List()
	if err != nil {
		return err
	}
	for _, t := range tasks {
		if t.State == task.AwaitingInput && !w.isActive(t.ID) && len(askedKeys(t)) > 0 {
			w.notify(task.EventInputRequested, t)
		}
	}
	return nil
}
