package cmd

import (
	"cmp"
	"fmt"

	"github.com/bh-tracker/bh/worker"
	"github.com/spf13/cobra"
)

type TranscriptOptions struct {
	base
	ID  string
	Run int
}

func newCmdTranscript(f *Factory, runF func(*TranscriptOptions) error) *cobra.Command {
	opts := &TranscriptOptions{}
	c := &cobra.Command{
		Use:   "transcript <id>",
		Short: "Print a run's conversation with the agent",
		Long: `Print the conversation of one of a task's runs, from its run log in
.git/bh/runs/<id>/: what the agent said, each tool call in a few words and its
result, and how the run ended. A run that was killed or timed out shows
what it did until then. --run picks the run (1 is the first; the last by
default). With --json, print {taskId, run, runs, entries: [{role, text}]}.

Exit codes:
  0  the transcript was printed
  1  the task has no such run`,
		Example: `  bh transcript a1b2
  bh transcript a1b2 --run 1`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), args[0]
			return runWith(runF, transcriptRun, opts)
		},
	}
	c.Flags().IntVar(&opts.Run, "run", 0, "the run to print, `N` from 1 (default: the last)")
	return c
}

func transcriptRun(opts *TranscriptOptions) error {
	s, id, err := opts.resolve(opts.ID)
	if err != nil {
		return err
	}
	if opts.Run < 0 {
		return usageErrorf("--run counts from 1")
	}
	entries, runs, err := worker.RunTranscript(s, id, opts.Run)
	if err != nil {
		return err
	}
	n := cmp.Or(opts.Run, runs)
	if opts.JSON {
		return writeJSON(opts.IO.Out, map[string]any{"taskId": id, "run": n, "runs": runs, "entries": entries})
	}
	io := opts.IO
	fmt.Fprintf(io.Out, "%s run %d of %d\n", id, n, runs)
	for _, e := range entries {
		switch e.Role {
		case "tool":
			fmt.Fprintf(io.Out, "  %s\n", io.Faint(e.Text))
		case "result":
			fmt.Fprintf(io.Out, "%s %s\n", io.Bold("result:"), e.Text)
		default:
			fmt.Fprintf(io.Out, "%s %s\n", io.Bold(e.Role+":"), e.Text)
		}
	}
	return nil
}
