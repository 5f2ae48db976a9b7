package worker

import (
	"path/filepath"

	"github.com/bh-tracker/bh/worker/jail"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/runlog"
)

// openLog starts r's log. A log that cannot be written costs the run nothing.
func (w *worker) openLog(r *run) *runlog.Log {
	name := r.started.UTC().Format("20060102T150405.000000000Z") + ".log"
	dir, err := jail.OwnRunDir(w.s, r.t.ID)
	if err != nil {
		return &runlog.Log{}
	}
	f, err := jail.CreateNew(filepath.Join(dir, name), 0o644)
	if err != nil {
		return &runlog.Log{}
	}
	return runlog.Start(f, w.s.Shown(filepath.Join(dir, name)), r.t.ID, r.session, r.started, r.prompt)
}

// RunTranscript is run n (1 is the first; 0 the last) of task id, read
// from its run log, and how many runs there are.
func RunTranscript(s *store.Store, id string, n int) ([]agent.Entry, int, error) {
	return runlog.Transcript(store.RunDir(s, id), id, n)
}

// step reports a running agent's tool call and adds it to the feed
// (store.AppendStep).
func (w *worker) step(id, step string) {
	w.report(Event{Kind: Step, Task: id, Summary: step})
	store.AppendStep(w.s, store.StepLine{At: w.clock(), TaskID: id, Step: step})
}
