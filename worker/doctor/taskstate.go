package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/worker/jail"
)

// checkTaskState finds the agent states, outboxes and own folders (the
// runs' caches) of tasks that are
// closed or gone. Being litter, not trouble, they are a note, which
// leaves the exit code be; --fix removes them.
func (d *doctor) checkTaskState() error {
	clean := true
	for _, kind := range [][2]string{{"agent state", jail.AgentStatesOf(d.s.Root, d.repo.CommonDir())},
		{"outbox", jail.OutboxesOf(d.s, d.repo.CommonDir())}, {"caches", jail.RunHomesOf(d.s, d.repo.CommonDir())}} {
		what, dir := kind[0], kind[1]
		entries, err := os.ReadDir(dir)
		if err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("%s: %w", what, err)
		}
		var stale []string
		for _, e := range entries {
			if gone, _ := d.closedOrMissing(e.Name()); gone {
				stale = append(stale, e.Name())
			}
		}
		if len(stale) == 0 {
			continue
		}
		clean = false
		slices.Sort(stale)
		d.guarded(Finding{Check: "state", Status: OK, Subject: dir,
			Message: fmt.Sprintf("%d tasks closed or deleted still have their %s here: %s", len(stale), what, someOf(stale, 10)),
			Fix:     "bh doctor --fix removes them"}, func() error {
			for _, id := range stale {
				if err := jail.RemoveTree(filepath.Join(dir, id)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if clean {
		d.ok("state", "no agent state or outbox of a closed or deleted task")
	}
	return nil
}

// someOf names the first n of ids, and counts the rest.
func someOf(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:n], ", ") + fmt.Sprintf(" and %d more", len(ids)-n)
}
