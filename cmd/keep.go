package cmd

import (
	"errors"

	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/storegit"
)

// uncheckedCommands do not warn of task files the tree lost: git runs
// merge-file in the middle of a merge, completion writes to the shell, the
// agent's MCP server has no human, and doctor reports it as a finding.
var uncheckedCommands = map[string]bool{"merge-file": true, "__complete": true, "__completeNoDesc": true,
	"completion": true, "mcp": true, "doctor": true}

// keep makes s keep a copy of every file it writes (storegit.Keeper), and
// warns, once per command, when the tree lost files bh wrote.
func (f *Factory) keep(s *store.Store) {
	jsonMode := f.JSON
	kp := storegit.NewKeeper(s, func(err error) { warn(f.IO, jsonMode, err) })
	s.Keep = kp.Write
	if f.keptChecked || len(f.Args) > 0 && uncheckedCommands[f.Args[0]] {
		return
	}
	f.keptChecked = true
	if lost, err := kp.Check(); err != nil {
		warn(f.IO, f.JSON, err)
	} else if lost != nil {
		warn(f.IO, f.JSON, lost)
	}
}

// lostStore is err, unless .bh/ is gone from a repository bh kept a copy
// of (git clean of a .bh/ never committed): then it says how to get it back.
func lostStore(dir string, err error) error {
	if !errors.Is(err, store.ErrNoStore) || storegit.KeptConfig(dir) == nil {
		return err
	}
	return &lostStoreError{err}
}

type lostStoreError struct{ error }

func (e *lostStoreError) Unwrap() error { return e.error }
func (e *lostStoreError) Error() string {
	return "not in a bh repository: .bh/ is gone (git clean or git stash -u?), and bh kept a copy of it"
}
func (e *lostStoreError) Hint() string {
	return "run 'bh init' (it puts bh's copy of config.yaml back), then 'bh doctor --fix' to restore the tasks"
}
