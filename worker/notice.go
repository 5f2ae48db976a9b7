package worker

import (
	"context"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/notify"
)

// notifyCloseWait bounds how long a stopping worker waits for
// notifications still in flight.
const notifyCloseWait = 5 * time.Second

// notify sends the event name for t as it stands now. Delivery happens in
// the background; a nil notifier does nothing.
func (w *worker) notify(name string, t *task.Task) {
	if w.notifier == nil || t == nil {
		return
	}
	w.notifier.Send(notify.FromTask(name, t, w.clock()).In(w.s.Root))
}

// warnf turns a notifier's delivery failure into a Warning event.
func (w *worker) warnf(format string, args ...any) {
	w.report(Event{Kind: Warning, Summary: fmt.Sprintf(format, args...)})
}

func (w *worker) closeNotifier() {
	ctx, cancel := context.WithTimeout(context.Background(), notifyCloseWait)
	defer cancel()
	if err := w.notifier.Close(ctx); err != nil {
		w.warnf("%v", err)
	}
}
