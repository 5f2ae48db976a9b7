package cmd

import (
	"fmt"
	"os"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/spf13/cobra"
)

type MergeFileOptions struct {
	base
	Base, Ours, Theirs, Path string
}

func newCmdMergeFile(f *Factory, runF func(*MergeFileOptions) error) *cobra.Command {
	opts := &MergeFileOptions{}
	return &cobra.Command{
		Use:   "merge-file <base> <ours> <theirs> [path]",
		Short: "Merge two versions of a task file (git's merge driver for .bh/tasks)",
		Long: `Merge two versions of a task file field by field, as git's merge driver
(bh init registers it; .bh/.gitattributes names it): a field changed on one
side takes that side's value, updatedAt the later one, and the history and
questions of both sides are kept, in time order. The result replaces ours.
Two answers to one question (from two clones) are not a conflict: the
earlier stands, and the later is kept in the history as input.unused.
Any other field changed differently on both sides is a real conflict: the
result marks exactly it, as git does, and bh names the file until it is
resolved.

Exit codes:
  0  merged cleanly
  1  conflicts are left to resolve (or an error)`,
		Example: `  git config merge.bh-task.driver 'bh merge-file %O %A %B %P'`,
		Args:    argsRange(3, 4, "base, ours and theirs files, then the path"),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.Base, opts.Ours, opts.Theirs, opts.Path = f.base(), args[0], args[1], args[2], argAt(args, 3)
			return runWith(runF, mergeFileRun, opts)
		},
	}
}

func mergeFileRun(opts *MergeFileOptions) error {
	var files [3][]byte
	for i, p := range []string{opts.Base, opts.Ours, opts.Theirs} {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[i] = b
	}
	out, conflict, err := task.MergeFiles(files[0], files[1], files[2], git.MergeText)
	if err != nil {
		return fmt.Errorf("%s: %w", opts.Path, err)
	}
	if err := os.WriteFile(opts.Ours, out, 0o644); err != nil {
		return err
	}
	if conflict {
		return fmt.Errorf("%s: the same field was changed on both sides: resolve the marked lines", opts.Path)
	}
	return nil
}
