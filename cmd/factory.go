package cmd

import (
	"os"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
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
		config.Register(s.Root) // for bh inbox
		f.keep(s)
		return s, nil
	}
	return f
}

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
