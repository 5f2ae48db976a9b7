package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

type RespondOptions struct {
	base
	Editor    func() string
	ID        string
	Answer    string
	HasAnswer bool // an answer argument was given ("-" means stdin)
	Edit      bool
}

func newCmdRespond(f *Factory, runF func(*RespondOptions) error) *cobra.Command {
	opts := &RespondOptions{}
	c := &cobra.Command{
		Use:   "respond <id> [<answer> | -]",
		Short: "Answer the question a task is waiting on",
		Long: `Answer a task that is awaiting_input. The answer is recorded in the task and
its history, and the task is opened again, so that the worker resumes the
agent's session with your answer.

Give the answer as an argument, or "-" to read it from stdin. With --edit, or
with no answer on a terminal, your editor opens on the question and its
context: write the answer below the marker line.`,
		Example: `  bh respond a1b2 "Use PostgreSQL"
  git diff | bh respond a1b2 -
  bh respond a1b2 --edit`,
		Args:              argsRange(1, 2, "task id, then the answer"),
		ValidArgsFunction: completeIDs(f, 1, func(t *task.Task) bool { return t.State == task.AwaitingInput }),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.Editor, opts.ID = f.base(), f.Editor, args[0]
			opts.Answer, opts.HasAnswer = "", false
			if len(args) == 2 {
				opts.Answer, opts.HasAnswer = args[1], true
			}
			if runF != nil {
				return runF(opts)
			}
			return respondRun(opts)
		},
	}
	c.Flags().BoolVarP(&opts.Edit, "edit", "e", false, "write the answer in your editor")
	return c
}

func respondRun(opts *RespondOptions) error {
	switch {
	case opts.Edit && opts.HasAnswer:
		return usageErrorf("give the answer or --edit, not both")
	case !opts.HasAnswer && !opts.Edit && !opts.IO.IsStdinTTY:
		return usageErrorf("no answer given: pass it as an argument, \"-\" to read it from stdin, or use --edit")
	}
	s, err := opts.Store()
	if err != nil {
		return err
	}
	id, err := s.Resolve(opts.ID)
	if err != nil {
		return err
	}
	t, err := s.Get(id)
	if err != nil {
		return err
	}
	if t.State != task.AwaitingInput { // before anyone writes an answer in vain
		return notAwaiting(t)
	}
	answer, scratch, rel, err := readAnswer(opts, s, t)
	if err != nil {
		return err
	}
	if answer == "" {
		if scratch != "" {
			os.Remove(scratch)
		}
		return errors.New("empty answer: nothing was changed")
	}
	t, err = s.Update(id, func(t *task.Task) error { return t.Respond(answer, stamp(opts.Now), "human") })
	if err != nil {
		if scratch != "" {
			return withHint(err, "your answer is kept in "+rel)
		}
		return err
	}
	if scratch != "" {
		os.Remove(scratch)
	}
	fmt.Fprintf(opts.IO.ErrOut, "answered %s: it is open again, and the worker will resume it with your answer\n", id)
	if opts.JSON {
		return writeJSON(opts.IO.Out, t)
	}
	return nil
}

// readAnswer gets the answer from the argument, stdin or the editor. For
// the editor it also returns the scratch file, kept until the answer is in.
func readAnswer(opts *RespondOptions, s *task.Store, t *task.Task) (answer, scratch, rel string, err error) {
	switch {
	case opts.HasAnswer && opts.Answer == "-":
		b, err := io.ReadAll(opts.IO.In)
		if err != nil {
			return "", "", "", fmt.Errorf("read answer: %w", err)
		}
		return strings.TrimSpace(string(b)), "", "", nil
	case opts.HasAnswer:
		return strings.TrimSpace(opts.Answer), "", "", nil
	}
	scratch, rel, b, err := editScratch(opts.IO, opts.Editor(), s, "respond-"+t.ID+"-*.md", []byte(answerTemplate(t)))
	if err != nil {
		return "", "", "", err
	}
	answer, err = parseAnswer(string(b))
	if err != nil {
		return "", "", "", withHint(err, "nothing was changed; your text is kept in "+rel)
	}
	return answer, scratch, rel, nil
}

func notAwaiting(t *task.Task) error {
	return withHint(&task.NotAwaitingError{ID: t.ID, State: t.State},
		"bh list --awaiting shows the tasks waiting for an answer")
}
