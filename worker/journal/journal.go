// Package journal is the worker's record of each run's intent, in
// .git/bh/runs/<id>/journal.json: written down before each step a crash
// could cut in two, read by a restarted worker to finish what the dead one
// began.
package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/jail"
)

// Journal is a run's intent, written down before each step that a crash
// could cut in two: where its worktree is, what it builds on, the agent's
// process group while it runs, the ending once decided, and the commit
// being landed. A restarted worker reads it to finish what the dead one
// began (worker's recoverTask). It lives in .git/bh/runs/<id>/ (git-ignored).
type Journal struct {
	Version  int            `json:"version"` // its format: Version
	Task     string         `json:"task"`
	Lease    task.Lease     `json:"lease"`
	Worktree string         `json:"worktree"`
	Branch   string         `json:"branch"`
	Target   string         `json:"target"`
	Base     string         `json:"base"`
	PGID     int            `json:"pgid,omitempty"`
	Ending   *ending.Ending `json:"ending,omitempty"`
	Final    string         `json:"final,omitempty"`   // the commit being landed
	Waiting  string         `json:"waiting,omitempty"` // why the ending could not be carried out yet
}

// Version is the journal's format, in the one place it changes. A
// journal of another version is read for where its run is (worktree,
// branch, target, base) but its ending is not carried out: the run is
// recovered (ending.RunRecovered: the work parked, the task reopened), and
// its ending decided again. History:
//
//	0  no version written: an ending decided before land: branch was
//	   part of it (a completion could be journaled to land, not kept).
//	1  the ending as Decide makes it now, with land: branch's keep in it.
const Version = 1

// Path is task id's journal.
func Path(s *store.Store, id string) string {
	return store.RunDir(s, id, "journal.json")
}

// Save writes j down, at its version.
func Save(s *store.Store, j *Journal) error {
	j.Version = Version
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if _, err := jail.OwnRunDir(s, j.Task); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	// Write, sync, rename: a crash leaves the old journal or the new one.
	path := Path(s, j.Task)
	if err := jail.WriteThrough(path, path+".tmp", 0o644, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	}); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// Load reads task id's journal; nil, nil when the task has none.
func Load(s *store.Store, id string) (*Journal, error) {
	data, err := os.ReadFile(Path(s, id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	var j Journal
	if err := json.Unmarshal(data, &j); err != nil {
		// A torn journal cannot be trusted: the run is recovered as if it had none.
		return nil, nil
	}
	if j.Version != Version {
		j.Ending, j.Waiting = nil, ""
	}
	return &j, nil
}

// Remove deletes task id's journal.
func Remove(s *store.Store, id string) {
	os.Remove(Path(s, id))
	os.Remove(Path(s, id) + ".tmp")
}

// List lists the tasks that have a journal.
func List(s *store.Store) ([]string, error) {
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
