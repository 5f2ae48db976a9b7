package store

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/internal/atomicfile"
)

// IDs lists the IDs of every task file, readable or not, sorted.
func (s *Store) IDs() ([]string, error) {
	ids, err := s.ids()
	sort.Strings(ids)
	return ids, err
}

// ids is IDs unsorted: names only, no stat or parse of any file.
func (s *Store) ids() ([]string, error) {
	d, err := os.Open(filepath.Join(s.Dir, "tasks"))
	if err != nil {
		return nil, fmt.Errorf("read tasks: %w", err)
	}
	defer d.Close()
	ids, err := readNames(d)
	if err != nil {
		return nil, fmt.Errorf("read tasks: %w", err)
	}
	return ids, nil
}

// Resolve turns what a user typed into one task ID.
func (s *Store) Resolve(ref string) (string, error) {
	r, err := task.CheckRef(ref)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(s.Path(r)); err == nil {
		return r, nil // the common case, without listing the folder
	}
	ids, err := s.ids()
	if err != nil {
		return "", err
	}
	return task.ResolveID(r, ids)
}

// Get reads one task by its exact ID.
func (s *Store) Get(id string) (*task.Task, error) {
	if !task.ValidID(id) {
		return nil, &task.BadIDError{Ref: id}
	}
	b, err := os.ReadFile(s.Path(id))
	return s.decodeRead(id, b, err)
}

// decodeRead decodes what reading the file of task id gave.
func (s *Store) decodeRead(id string, b []byte, err error) (*task.Task, error) {
	if errors.Is(err, os.ErrNotExist) {
		return nil, &task.NotFoundError{Ref: id}
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", id, err)
	}
	return task.Decode(s.relOrAbs(s.Path(id)), b, id)
}

// Create stores a new task, filling in its ID, defaults and first event.
// It reads no task, and the folder only when no list cache counts them.
func (s *Store) Create(t *task.Task) (*task.Task, error) {
	count, err := s.taskCount()
	if err != nil {
		return nil, err
	}
	t.Type, t.Priority = cmp.Or(t.Type, "code"), cmp.Or(t.Priority, "P2")
	if err := oneLine(t.Title); err != nil {
		return nil, err // before any id is drawn: nothing names one, nothing is left
	}
	t.State = task.Open
	now := s.now()
	t.CreatedAt = now
	t.Record(now, task.Event{Kind: task.EventCreated, To: task.Open})
	exists := func(id string) bool {
		_, err := os.Lstat(s.Path(id))
		return err == nil
	}
	for range 10 {
		if t.ID, err = task.NewID(s.Config.Prefix, count, exists); err != nil {
			return nil, err
		}
		l, err := s.lock(t.ID)
		if err != nil {
			return nil, err
		}
		if !exists(t.ID) { // still free, now that it is ours
			err = s.write(t)
			l.Unlock()
			if err != nil { // no task: no lock file of one either
				os.Remove(l.Path())
				return nil, err
			}
			return t, nil
		}
		l.Unlock()
	}
	return nil, fmt.Errorf("create: no free id after 10 tries")
}

// Update applies fn to the task under its lock and writes the result
// atomically. If fn fails, or the file cannot be read, nothing is written.
func (s *Store) Update(id string, fn func(t *task.Task) error) (*task.Task, error) {
	return s.UpdateThen(id, fn, nil)
}

// UpdateThen is Update with a step between deciding the new file and
// writing it: then gets the file's new bytes, and the file is written only
// if then (if not nil) succeeds, still under the task's lock. The worker lands a task's
// commit (which holds those very bytes) this way, so that a task never
// reads as closed without its commit, and the user's tree ends up with the
// committed file.
func (s *Store) UpdateThen(id string, fn func(t *task.Task) error, then func(data []byte) error) (*task.Task, error) {
	l, err := s.lock(id)
	if err != nil {
		return nil, err
	}
	defer l.Unlock()
	t, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	was := t.State
	if err := fn(t); err != nil {
		return nil, err
	}
	t.UpdatedAt = s.now()
	b, err := s.encode(t)
	if err != nil {
		return nil, err
	}
	undo, err := s.recur(was, t)
	if err != nil {
		return nil, err
	}
	if then != nil {
		err = then(b)
	}
	if err == nil {
		err = s.writeFile(t.ID, b)
	}
	if err != nil {
		undo()
		return nil, err
	}
	return t, nil
}

// PutFile replaces a task's file with data, which must decode as that task:
// recovery writes back the bytes a landed commit holds.
func (s *Store) PutFile(id string, data []byte) error {
	t, err := task.Decode(s.RelPath(id), data, id)
	if err != nil {
		return fmt.Errorf("write %s: %w", id, err)
	}
	l, err := s.lock(id)
	if err != nil {
		return err
	}
	defer l.Unlock()
	return s.writeEnding(t, data)
}

// writeEnding writes data, the file of t, over the file as it is, and
// makes the task that follows t if the write closes it.
func (s *Store) writeEnding(t *task.Task, data []byte) error {
	was := task.State("")
	if cur, err := s.Get(t.ID); err == nil {
		was = cur.State
	}
	undo, err := s.recur(was, t)
	if err != nil {
		return err
	}
	if err := s.writeFile(t.ID, data); err != nil {
		undo()
		return err
	}
	return nil
}

// Put replaces a task's file with t as given (bh edit), after checking that
// it is a valid task. It takes the task's lock.
func (s *Store) Put(t *task.Task) error {
	l, err := s.lock(t.ID)
	if err != nil {
		return err
	}
	defer l.Unlock()
	return s.write(t)
}

func (s *Store) write(t *task.Task) error {
	b, err := s.encode(t)
	if err != nil {
		return err
	}
	return s.writeFile(t.ID, b)
}

// encode renders t, refusing what bh could not read back.
func (s *Store) encode(t *task.Task) ([]byte, error) {
	if err := oneLine(t.Title); err != nil {
		return nil, fmt.Errorf("write %s: %w", t.ID, err)
	}
	if t.Brief() {
		return nil, fmt.Errorf("write %s: listed without its history, the task cannot be written back; get it to change it", t.ID)
	}
	// On top of the file as it is: the user's comments and keys stay.
	cur, _ := os.ReadFile(s.Path(t.ID))
	b, err := task.Render(t, cur)
	if err != nil {
		return nil, err
	}
	if _, err := task.Decode(s.RelPath(t.ID), b, t.ID); err != nil {
		return nil, fmt.Errorf("write %s: %w", t.ID, err)
	}
	return b, nil
}

func (s *Store) writeFile(id string, b []byte) error {
	write := func() error { return atomicfile.Write(filepath.Join(s.Dir, "tmp"), s.Path(id), b) }
	if err := s.keep("tasks/"+id+".yaml", b, write); err != nil {
		return fmt.Errorf("write %s: %w", id, err)
	}
	return nil
}

func (s *Store) relOrAbs(p string) string {
	if r, err := filepath.Rel(s.Root, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}

// oneLine refuses a title bh could not show on one line.
func oneLine(title string) error {
	if strings.ContainsAny(title, "\r\n") {
		return errors.New("the title must be one line (put the rest in the description)")
	}
	return nil
}
