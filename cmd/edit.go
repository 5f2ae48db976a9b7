package cmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
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

// runEditor opens path in the editor and waits for it to exit. The editor
// may carry arguments ("code --wait"), so it runs through the shell, as git
// runs it. It gets the terminal, never a pipe meant for --json data, so it
// stays in bh's process group (Ctrl-C reaches both) and is hung up if bh dies.
func runEditor(io *IOStreams, editor, path string) error {
	c := proc.Cmd{Argv: []string{"sh", "-c", editor + ` "$@"`, editor, path}, Stdin: io.In,
		Stdout: io.Terminal(), Stderr: io.Terminal(), Terminal: true}
	if io.IsTTY {
		c.Stdout = io.Out
	}
	res, err := proc.Run(context.Background(), c)
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("exit status %d", res.ExitCode)
	}
	if err != nil {
		return fmt.Errorf("editor %q: %w", editor, err)
	}
	return nil
}

// scratchFile writes data to a new file in drafts/ of store.Local for the
// user to edit.
// It is only removed once what the user wrote has been saved, so a refused
// edit is never lost. rel is its path from the repository's top.
func scratchFile(s *store.Store, pattern string, data []byte) (path, rel string, err error) {
	dir := s.Local("drafts") // out of git clean's reach, and of the temp files' cleaning
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", "", err
	}
	f.Close()
	if err := os.WriteFile(f.Name(), data, 0o600); err != nil {
		os.Remove(f.Name())
		return "", "", err
	}
	rel, err = filepath.Rel(s.Root, f.Name())
	if err != nil {
		rel = f.Name()
	}
	return f.Name(), filepath.ToSlash(rel), nil
}

// editScratch writes data to a scratch file, opens it in the editor and
// returns what the user saved. If the editor fails the file is removed:
// quitting the editor with an error (vim's :cq) means "never mind".
func editScratch(io *IOStreams, editor string, s *store.Store, pattern string, data []byte) (path, rel string, out []byte, err error) {
	path, rel, err = scratchFile(s, pattern, data)
	if err != nil {
		return "", "", nil, err
	}
	if err := runEditor(io, editor, path); err != nil {
		os.Remove(path)
		return "", "", nil, err
	}
	out, err = os.ReadFile(path)
	if err != nil {
		return "", "", nil, err
	}
	return path, rel, out, nil
}
