package worker

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/worker/jail"

	"github.com/bh-tracker/bh/task/store"
)

// journalVersion is the journal's format, in the one place it changes. A
// journal of another version is read for where its run is (worktree,
// branch, target, base) but its ending is not carried out: the run is
// recovered (ending.RunRecovered: the work parked, the task reopened), and
// its ending decided again. History:
//
//	0  no version written: an ending decided before land: branch was
//	   part of it (a completion could be journaled to land, not kept).
//	1  the ending as Decide makes it now, with land: branch's keep in it.
const journalVersion = 1

func journalPath(s *store.Store, id string) string {
	return store.RunDir(s, id, "journal.json")
}

func saveJournal(s *store.Store, j *journal) error {
	j.Version = journalVersion
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if _, err := jail.OwnRunDir(s, j.Task); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	// Write, sync, rename: a crash leaves the old journal or the new one.
	path := journalPath(s, j.Task)
	if err := jail.WriteThrough(path, path+".tmp", 0o644, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	}); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// loadJournal returns nil, nil when the task has none.
func loadJournal(s *store.Store, id string) (*journal, error) {
	data, err := os.ReadFile(journalPath(s, id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil {
		// A torn journal cannot be trusted: the run is recovered as if it had none.
		return nil, nil
	}
	if j.Version != journalVersion {
		j.Ending, j.Waiting = nil, ""
	}
	return &j, nil
}

func removeJournal(s *store.Store, id string) {
	os.Remove(journalPath(s, id))
	os.Remove(journalPath(s, id) + ".tmp")
}

// journaled lists the tasks that have a journal.
func journaled(s *store.Store) ([]string, error) {
	m, err := filepath.Glob(store.RunDir(s, "*", "journal.json"))
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(m))
	for i, p := range m {
		ids[i] = filepath.Base(filepath.Dir(p))
	}
	return ids, nil
}

// started writes the agent's process group down before anything else, so
// that a restarted worker can stop an agent its dead predecessor left.
func (w *worker) started(r *run) func(int) {
	return func(pgid int) {
		r.j.PGID = pgid
		if err := saveJournal(w.s, r.j); err != nil {
			w.warnf("%s: %v", r.t.ID, err)
		}
	}
}
