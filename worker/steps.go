package worker

import (
	"github.com/bh-tracker/bh/task/store"
)

// step reports a running agent's tool call and adds it to the feed
// (store.AppendStep).
func (w *worker) step(id, step string) {
	w.report(Event{Kind: Step, Task: id, Summary: step})
	store.AppendStep(w.s, store.StepLine{At: w.clock(), TaskID: id, Step: step})
}
