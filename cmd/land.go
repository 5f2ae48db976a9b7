package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/worker/act"
	"github.com/bh-tracker/bh/worker/ending"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker"
	"github.com/spf13/cobra"
)

type LandOptions struct {
	base
	Ctx context.Context
	ID  string
}

func newCmdLand(f *Factory, runF func(*LandOptions) error) *cobra.Command {
	opts := &LandOptions{}
	return &cobra.Command{
		Use:   "land <id>",
		Short: "Land a task's finished work on its branch now",
		Long: `Land the finished work of a task that git would not land over your
uncommitted changes (it waits with a landing question), once you have
committed or stashed them; or land the commit a task keeps on its branch
bh/<id> (land: branch). The work is rebased onto the target branch if it
moved, checked (checks: in .bh/config.yaml) on the tree that lands, then
fast-forwarded; git still refuses to overwrite your changes, and a failing
check lands nothing.

Exit codes:
  0  landed
  1  nothing landed: git refused (your files in the way are named),
     a check failed, nothing to land, or another error

With --json, one object is printed either way:
  {"id": .., "landed": true|false, "state": .., "reason": .., "files": [..]}`,
		Example:           `  bh land a1b2`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(c *cobra.Command, args []string) error {
			opts.base, opts.Ctx, opts.ID = f.base(), c.Context(), args[0]
			return runWith(runF, landRun, opts)
		},
	}
}

// landJSON is bh land --json: one object, landed or not.
type landJSON struct {
	TaskID string     `json:"taskId"`
	Landed bool       `json:"landed"`
	State  task.State `json:"state"`
	Reason string     `json:"reason,omitempty"`
	Paths  []string   `json:"paths,omitempty"`
}

func landRun(opts *LandOptions) error {
	s, id, err := opts.resolve(opts.ID)
	if err != nil {
		return err
	}
	l, err := worker.NewLanding(s, worker.Options{Name: "bh land"})
	if err != nil {
		return err
	}
	err = act.Land(opts.Ctx, s, id, "human", l)
	out := landJSON{TaskID: id, Landed: err == nil}
	var nl *ending.NotLandedError
	switch {
	case errors.As(err, &nl):
		out.State, out.Reason, out.Paths = nl.State, nl.Reason, nl.Files
		err = withHint(err, landHint(nl))
	case err != nil:
		out.Reason = err.Error()
	}
	if t, gerr := s.Get(id); gerr == nil {
		out.State = t.State
	}
	if opts.JSON {
		if jerr := writeJSON(opts.IO.Out, out); jerr != nil {
			return jerr
		}
	} else if err == nil {
		fmt.Fprintf(opts.IO.ErrOut, "%s landed; it is %s\n", id, out.State)
	}
	return err
}

// landHint is what to do about a landing git would not make.
func landHint(nl *ending.NotLandedError) string {
	if len(nl.Files) > 0 {
		return "commit or stash your changes to " + strings.Join(nl.Files, ", ") + ", then bh land " + nl.ID + " again"
	}
	return ""
}
