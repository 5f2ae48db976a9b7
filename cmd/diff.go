package cmd

import (
	"fmt"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/attempts"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
	"github.com/spf13/cobra"
)

type DiffOptions struct {
	base
	ID      string
	Stat    bool
	Attempt int // attempt K of a task tried side by side, picked or not
}

func newCmdDiff(f *Factory, runF func(*DiffOptions) error) *cobra.Command {
	opts := &DiffOptions{}
	c := &cobra.Command{
		Use:   "diff <id>",
		Short: "Show the partial work parked for a task",
		Long: `Show the agent's partial work on a task that waits for an answer (or was
stopped, or whose agent failed). The work stays in the task's worktree and
is snapshotted under refs/bh/parked/<id>; this is the patch of everything
the agent changed since its branch left yours, and --stat summarises it.
With --json, print one object: taskId, ref, commit, base, worktree, paths
and diff. --attempt K shows attempt K of a task tried by several attempts
side by side (attempts: N), from its branch, or once another was picked
from refs/bh/attempts/<id>/<K>, kept a week.

Exit codes:
  0  the parked work was shown
  1  the task has no parked work (or another error)`,
		Example: `  bh diff a1b2
  bh diff a1b2 --stat
  bh diff a1b2 --attempt 3`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), args[0]
			return runWith(runF, diffRun, opts)
		},
	}
	c.Flags().BoolVar(&opts.Stat, "stat", false, "summarise the changes: files and lines")
	c.Flags().IntVar(&opts.Attempt, "attempt", 0, "show attempt `K` of a task tried side by side")
	return c
}

// diffView is bh diff --json. Its field names are part of bh's interface.
type diffView struct {
	TaskID   string   `json:"taskId"`
	Ref      string   `json:"ref"`
	Commit   string   `json:"commit"`
	Base     string   `json:"base"`     // the commit the work builds on
	Worktree string   `json:"worktree"` // where the work is, while its worktree exists
	Paths    []string `json:"paths"`
	Diff     string   `json:"diff"`
}

func diffRun(opts *DiffOptions) error {
	s, id, err := opts.resolve(opts.ID)
	if err != nil {
		return err
	}
	if opts.Attempt != 0 {
		return diffAttempt(opts, s, id)
	}
	p, err := git.FindParked(s.Root, id)
	if err != nil {
		return err
	}
	if p.Commit == "" {
		return withHint(fmt.Errorf("%s has no parked work", id), noParkHint(s, id))
	}
	d, err := p.Diff(opts.Stat)
	if err != nil {
		return err
	}
	if opts.JSON {
		paths, err := p.Repo.ChangedPaths(p.Base, p.Commit)
		if err != nil {
			return err
		}
		v := diffView{TaskID: id, Ref: p.Ref, Commit: p.Commit, Base: p.Base, Paths: paths, Diff: d}
		if wt, _ := p.Repo.OpenWorktree(slots.WorktreePath(s, p.Repo, id), slots.Branch(id)); wt != nil {
			v.Worktree = wt.Path
		}
		return writeJSON(opts.IO.Out, v)
	}
	_, err = fmt.Fprint(opts.IO.Out, d)
	return err
}

// noParkHint says where a task's work is when none is parked.
func noParkHint(s *store.Store, id string) string {
	t, err := s.Get(id)
	if err != nil {
		return ""
	}
	switch t.State {
	case task.Closed:
		return "its work was committed: git log --grep 'bh-task: " + id + "'"
	case task.InProgress:
		return "its agent is working on it now, in its own worktree"
	}
	return ""
}

// diffAttempt shows attempt opts.Attempt of task id.
func diffAttempt(opts *DiffOptions, s *store.Store, id string) error {
	t, err := s.Get(id)
	if err != nil {
		return err
	}
	r, err := git.Open(s.Root)
	if err != nil {
		return err
	}
	sh, err := attempts.Show(s, r, t, opts.Attempt, opts.Stat)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, diffView{TaskID: id, Ref: sh.Ref, Commit: sh.Commit, Base: sh.Base, Paths: sh.Paths, Diff: sh.Diff})
	}
	_, err = fmt.Fprint(opts.IO.Out, sh.Diff)
	return err
}
