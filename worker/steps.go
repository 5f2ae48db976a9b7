package worker

import "github.com/bh-tracker/bh/task"

// step reports a running agent's tool call and adds it to the feed
// (task.AppendStep).
func (w *worker) step(id, step string) {
	w.report(Event{Kind: Step, Task: id, Summary: step})
	task.AppendStep(w.s, task.StepLine{At: w.clock(), TaskID: id, Step: step})
}
