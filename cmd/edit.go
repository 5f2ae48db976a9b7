package cmd

import (
	"bytes"
	"fmt"
	"os"

	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

type EditOptions struct {
	base
	Editor func() string
	ID     string
}

func newCmdEdit(f *Factory, runF func(*EditOptions) error) *cobra.Command {
	opts := &EditOptions{}
	return &cobra.Command{
		Use:   "edit <id>",
		Short: "Edit a task's YAML file in your editor",
		Long: `Open the task's file in $VISUAL or $EDITOR (vi if neither is set). What you
save is checked before it replaces the task; a bad edit is refused, the task is
left as it was, and your edited text is kept under .bh/tmp/ so nothing is lost.
This also works on a task file bh cannot read, to repair it.`,
		Example: `  bh edit a1b2
  VISUAL=nano bh edit a1b2`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.Editor, opts.ID = f.base(), f.Editor, args[0]
			return runWith(runF, editRun, opts)
		},
	}
}

func editRun(opts *EditOptions) error {
	s, id, err := opts.resolve(opts.ID)
	if err != nil {
		return err
	}
	// The raw bytes, not a decoded task: a broken file must be editable too.
	orig, err := os.ReadFile(s.Path(id))
	if err != nil {
		return fmt.Errorf("edit %s: %w", id, err)
	}
	path, rel, edited, err := editScratch(opts.IO, opts.Editor(), s, "edit-"+id+"-*.yaml", orig)
	if err != nil {
		return fmt.Errorf("edit %s: %w", id, err)
	}
	if bytes.Equal(edited, orig) {
		os.Remove(path)
		fmt.Fprintf(opts.IO.ErrOut, "no changes to %s\n", id)
		return nil
	}
	kept := fmt.Sprintf("%s is unchanged; your edit is kept in %s", s.RelPath(id), rel)
	t, err := task.Decode(rel, edited, id)
	if err != nil {
		return withHint(err, kept+": fix it there and copy it over, or run bh edit again")
	}
	t.Record(stamp(opts.Now), task.Event{Kind: task.EventUpdated, By: "human", Text: "edited by hand"})
	if err := s.Replace(t, orig, edited); err != nil {
		return withHint(err, kept+": run bh edit again to redo it on the new version")
	}
	os.Remove(path)
	fmt.Fprintf(opts.IO.ErrOut, "saved %s\n", id)
	return opts.result(t)
}
