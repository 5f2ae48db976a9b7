package worker

import "github.com/bh-tracker/bh/worker/storegit"

// restoreOlder puts back, before the loop claims, each task file that git
// took back to an older version than bh wrote (git reset --hard, git
// checkout of the file): a task whose answer or state went back is never
// run from the older file. A file gone stays bh doctor --fix's to restore
// (bh rm forgets one removed on purpose); every command's warning names it.
func (w *worker) restoreOlder() {
	kp := storegit.NewKeeper(w.s, func(err error) { w.warnf("%v", err) })
	lost, err := kp.Check()
	if err != nil {
		w.warnf("compare the task files with bh's copies: %v", err)
	}
	if lost == nil {
		return
	}
	var older []storegit.Lost
	for _, l := range lost.Lost {
		if _, ok := l.TaskID(); ok && !l.Missing {
			older = append(older, l)
		}
	}
	if len(older) == 0 {
		return
	}
	if err := kp.Restore(older); err != nil {
		w.warnf("%v", err)
		return
	}
	for _, l := range older {
		w.warnf("restored .bh/%s: git had taken it back to an older version than bh wrote", l.Rel)
	}
}
