package storegit

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task/store"
)

// recompare is how long a worker trusts a stamp its own writes moved on
// (restamp) before it compares the tree again: a git reset during one of
// its writes is caught within it. At 10k tasks a comparison of a whole
// tree reads no file, about 20 ms.
const recompare = 10 * time.Second

// RestoreOlder puts back, for a worker about to claim, each task file
// that git took back to an older version than bh wrote (git reset --hard,
// git checkout of the file): a task whose answer or state went back is
// never run from the older file. A file gone stays bh doctor --fix's (bh
// rm forgets one removed on purpose); every command's warning names it.
// It returns what it says to the worker's human.
func RestoreOlder(s *store.Store) []string {
	var said []string
	kp := NewKeeper(s, func(err error) { said = append(said, err.Error()) })
	lost, err := kp.check(recompare)
	if err != nil {
		return append(said, fmt.Sprintf("compare the task files with bh's copies: %v", err))
	}
	if lost == nil {
		return said
	}
	var older []Lost
	for _, l := range lost.Lost {
		if _, ok := l.TaskID(); ok && !l.Missing {
			older = append(older, l)
		}
	}
	if err := kp.Restore(older); err != nil {
		return append(said, err.Error())
	}
	for _, l := range older {
		said = append(said, "restored .bh/"+l.Rel+": git had taken it back to an older version than bh wrote")
	}
	return said
}
