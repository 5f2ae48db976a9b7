package cmd

import (
	"errors"
	"os"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/cmd/web/webopts"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/storegit"
)

// Factory carries what commands need from the outside world. It is built
// fresh for every run, and tests swap its parts.
type Factory struct {
	IO      *IOStreams
	WorkDir func() (string, error)
	Store   func() (*store.Store, error)
	Now     func() time.Time
	Editor  func() string
	Picker  func(*IOStreams) picker
	// AfterFunc is bh serve's undo window's timer (web.Options.AfterFunc);
	// nil: the real one, worker/undo's Window.
	AfterFunc func(time.Duration, func()) func() bool
	// Inbox is bh serve's web inbox: bh-web's (MainInbox). bh has none,
	// and its serve runs bh-web.
	Inbox webopts.New

	// Global flags, set by the root command before any command runs.
	JSON    bool
	NoColor bool

	Args []string // the command line, after "bh"

	keptChecked bool // the store was checked against bh's copies (keep.go)
}

func newFactory() *Factory {
	f := &Factory{
		IO:      ui.System(),
		WorkDir: os.Getwd,
		Now:     time.Now,
		Editor:  editorFromEnv,
		Picker:  ui.NewHuhPicker,
	}
	f.Store = func() (*store.Store, error) {
		dir, err := f.WorkDir()
		if err != nil {
			return nil, err
		}
		s, err := store.Find(dir)
		if err != nil {
			return nil, lostStore(dir, err)
		}
		s.Now = f.Now
		s.Mapped = OneShot(f.Args)
		config.Register(s.Root) // for bh inbox
		f.keep(s)
		return s, nil
	}
	return f
}

// OneShot reports whether args (after "bh") name a command that reads,
// prints and exits: main runs it without a collector, and its store maps
// its caches rather than reading them (store.Store.Mapped).
func OneShot(args []string) bool { return len(args) > 0 && oneShot[args[0]] }

var oneShot = map[string]bool{"list": true, "ls": true, "ready": true, "tree": true, "show": true, "status": true, "add": true}

// editorFromEnv picks the user's editor the way git does.
func editorFromEnv() string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if e := os.Getenv(v); e != "" {
			return e
		}
	}
	return "vi"
}

// stamp is the time bh records in task files: UTC, whole seconds.
func stamp(now func() time.Time) time.Time { return now().UTC().Truncate(time.Second) }

// The terminal UI lives in cmd/ui, which the board shares; its types are
// the vocabulary of every command here.
type (
	IOStreams = ui.IOStreams
	picker    = ui.Picker
	pickOpt   = ui.PickOpt
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
	if storegit.OnABranch(dir) {
		return &otherBranchError{err}
	}
	return &lostStoreError{err}
}

// otherBranchError is a checkout of a branch made before bh init: .bh/ is
// on another branch, and bh init here would make an untracked .bh/ that
// git checkout of that branch then refuses to overwrite.
type otherBranchError struct{ error }

func (e *otherBranchError) Unwrap() error { return e.error }
func (e *otherBranchError) Error() string {
	return "not in a bh repository: this checkout has no .bh/, which git holds on another branch (a branch made before bh init?)"
}
func (e *otherBranchError) Hint() string {
	return "check out the branch bh was set up on, or bring .bh/ here with git merge; bh init here would leave an untracked .bh/ in git checkout's way"
}

type lostStoreError struct{ error }

func (e *lostStoreError) Unwrap() error { return e.error }
func (e *lostStoreError) Error() string {
	return "not in a bh repository: .bh/ is gone (git clean or git stash -u?), and bh kept a copy of it"
}
func (e *lostStoreError) Hint() string {
	return "run 'bh init' (it puts bh's copy of config.yaml back), then 'bh doctor --fix' to restore the tasks"
}

// base is what most commands' options share; each RunE fills it in after
// the flags are parsed.
type base struct {
	IO    *IOStreams
	Store func() (*store.Store, error)
	Now   func() time.Time
	JSON  bool
	Args  []string // the command line, after "bh"
}

func (f *Factory) base() base {
	if f.JSON {
		f.IO.Unfiltered()
	}
	return base{IO: f.IO, Store: f.Store, Now: f.Now, JSON: f.JSON, Args: f.Args}
}

// runWith runs the command's run, or the runF a test put in its place.
func runWith[O any](runF, run func(O) error, opts O) error {
	if runF != nil {
		return runF(opts)
	}
	return run(opts)
}

// resolve opens the store and finds the one task that ref names.
func (b base) resolve(ref string) (*store.Store, string, error) {
	s, err := b.Store()
	if err != nil {
		return nil, "", err
	}
	id, err := s.Resolve(ref)
	return s, id, err
}

// load is resolve that also reads the task.
func (b base) load(ref string) (*store.Store, *task.Task, error) {
	s, id, err := b.resolve(ref)
	if err != nil {
		return nil, nil, err
	}
	t, err := s.Get(id)
	return s, t, err
}

// result prints v on stdout with --json; without it, the command has said
// on stderr what it did.
func (b base) result(v any) error {
	if !b.JSON {
		return nil
	}
	return writeJSON(b.IO.Out, v)
}

// listing reads every task for a view, and warns of the files it skipped.
// Views for people show no history beyond the last question, so they skip
// decoding the rest of it.
func (b base) listing(s *store.Store) ([]*task.Task, error) {
	list := s.ListBrief
	if b.JSON {
		list = s.List
	}
	tasks, bad, err := list()
	warnFiles(b.IO, b.JSON, bad)
	return tasks, err
}
