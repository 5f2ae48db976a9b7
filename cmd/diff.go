package cmd

import (
	"fmt"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/repo"
	"github.com/spf13/cobra"
)

type DiffOptions struct {
	base
	ID   string
	Stat bool
}

func newCmdDiff(f *Factory, runF func(*DiffOptions) error) *cobra.Command {
	opts := &DiffOptions{}
	c := &cobra.Command{
		Use:   "diff <id>",
		Short: "Show the partial work parked for a task",
		Long: `Show the agent's partial work that waits, out of the working tree, under
refs/bh/parked/<id> while its task waits for an answer (or was stopped, or
its agent failed). It is the patch of only the agent's changes, even in files
you edited too; --stat summarises it. The worker puts it back when the task
resumes. With --json, print one object: taskId, ref, commit, base, paths and
diff.

Exit codes:
  0  the parked work was shown
  1  the task has no parked work (or another error)`,
		Example: `  bh diff a1b2
  bh diff a1b2 --stat`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), args[0]
			if runF != nil {
				return runF(opts)
			}
			return diffRun(opts)
		},
	}
	c.Flags().BoolVar(&opts.Stat, "stat", false, "summarise the changes: files and lines")
	return c
}

// diffView is bh diff --json. Its field names are part of bh's interface.
type diffView struct {
	TaskID string   `json:"taskId"`
	Ref    string   `json:"ref"`
	Commit string   `json:"commit"`
	Base   string   `json:"base"` // HEAD when the work was parked
	Paths  []string `json:"paths"`
	Diff   string   `json:"diff"`
}

func diffRun(opts *DiffOptions) error {
	s, id, err := opts.resolve(opts.ID)
	if err != nil {
		return err
	}
	r, err := repo.Open(s.Root)
	if err != nil {
		return err
	}
	ref := worker.ParkRef(id)
	info, err := r.Parked(ref)
	if err != nil {
		return err
	}
	if info == nil {
		return withHint(fmt.Errorf("%s has no parked work", id), noParkHint(s, id))
	}
	d, err := r.ParkedDiff(ref, opts.Stat)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, diffView{TaskID: id, Ref: ref, Commit: info.Commit, Base: info.Base,
			Paths: info.Paths, Diff: d})
	}
	_, err = fmt.Fprint(opts.IO.Out, d)
	return err
}

// noParkHint says where a task's work is when none is parked.
func noParkHint(s *task.Store, id string) string {
	t, err := s.Get(id)
	if err != nil {
		return ""
	}
	switch t.State {
	case task.Closed:
		return "its work was committed: git log --grep 'bh-task: " + id + "'"
	case task.InProgress:
		return "its agent works in the working tree now: git status"
	}
	return ""
}
