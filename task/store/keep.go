package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/internal/atomicfile"
)

// Keeper is told of every file of the store's that bh writes or removes,
// around the write itself, so that the layer above can keep a copy out
// of the user's reach (the store runs no git). rel is relative to .bh
// ("tasks/tm-ab12.yaml", "config.yaml"); data is nil for a removal. It
// returns write's error: keeping is the keeper's own business.
type Keeper func(rel string, data []byte, write func() error) error

// keep runs write through the store's Keeper, if it has one.
func (s *Store) keep(rel string, data []byte, write func() error) error {
	if s.Keep == nil {
		return write()
	}
	return s.Keep(rel, data, write)
}

// Remove deletes a task's file on purpose (bh rm): the keeper forgets it.
func (s *Store) Remove(id string) error {
	if !task.ValidID(id) {
		return &task.BadIDError{Ref: id}
	}
	l, err := s.lock(id)
	if err != nil {
		return err
	}
	defer l.Unlock()
	return s.keep("tasks/"+id+".yaml", nil, func() error {
		err := os.Remove(s.Path(id))
		if errors.Is(err, os.ErrNotExist) {
			return &task.NotFoundError{Ref: id}
		}
		return err
	})
}

// ConfigPath is the store's config file.
func (s *Store) ConfigPath() string { return filepath.Join(s.Dir, "config.yaml") }

// PutConfig writes config.yaml back (bh doctor --fix, from bh's kept
// copy), provided it loads.
func (s *Store) PutConfig(data []byte) error {
	if _, err := config.Parse(s.ConfigPath(), data); err != nil {
		return fmt.Errorf("write config.yaml: %w", err)
	}
	return s.keep("config.yaml", data, func() error {
		return atomicfile.Write(filepath.Join(s.Dir, "tmp"), s.ConfigPath(), data)
	})
}
