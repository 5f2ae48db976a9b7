package cmd

import (
	"errors"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/spf13/cobra"
)

type ReadyOptions struct {
	base
	Why string // say why this task is ready or not
}

func newCmdReady(f *Factory, runF func(*ReadyOptions) error) *cobra.Command {
	opts := &ReadyOptions{}
	c := &cobra.Command{
		Use:   "ready [--why <id>]",
		Short: "Show the tasks the worker may take now, in the order it takes them",
		Long: `Show the ready queue: open tasks whose dependencies are all closed (and
whose notBefore, if any, has come), by priority, then age. This is the
order in which bh worker takes them.

--why <id> says why one task is ready or not: its state, its time still
ahead (a recurring task), each dependency that is not closed (or does not
exist), work of its own waiting to land.
With --json: {"taskId": .., "ready": true|false, "state": .., "reason": [..]}.`,
		Example: `  bh ready
  bh ready --json | jq -r '.[0].id'
  bh ready --why a1b2`,
		Args: argsRange(0, 0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			opts.base = f.base()
			return runWith(runF, readyRun, opts)
		},
	}
	c.Flags().StringVar(&opts.Why, "why", "", "say why the task `id` is ready or not")
	completeFlagIDs(c, f, "why")
	return c
}

func readyRun(opts *ReadyOptions) error {
	if opts.Why != "" {
		return readyWhy(opts)
	}
	defer opts.IO.Buffer()()
	s, err := opts.Store()
	if err != nil {
		return err
	}
	return opts.memoView(s, "ready", func(list func() ([]*task.Task, error)) error {
		tasks, err := list()
		if err != nil {
			return err
		}
		warnCycles(opts.IO, opts.JSON, tasks)
		queue := task.Ready(tasks, opts.Now())
		if queue == nil {
			queue = []*task.Task{}
		}
		return printTasks(opts.base, queue, "nothing is ready: no open task has all its dependencies closed")
	})
}

// readyJSON is bh ready --why --json.
type readyJSON struct {
	TaskID  string     `json:"taskId"`
	Ready   bool       `json:"ready"`
	State   task.State `json:"state"`
	Reasons []string   `json:"reason"`
}

// readyWhy says why one task is ready or not.
func readyWhy(opts *ReadyOptions) error {
	s, t, err := opts.load(opts.Why)
	if err != nil {
		return err
	}
	id := t.ID
	out := readyJSON{TaskID: id, State: t.State, Reasons: whyNotReady(s, t, opts.Now())}
	out.Ready = len(out.Reasons) == 0
	if opts.JSON {
		if out.Reasons == nil {
			out.Reasons = []string{}
		}
		return writeJSON(opts.IO.Out, out)
	}
	if out.Ready {
		fmt.Fprintf(opts.IO.Out, "%s is ready: it is open and all it depends on is closed\n", id)
		return nil
	}
	fmt.Fprintf(opts.IO.Out, "%s is not ready:\n", id)
	for _, r := range out.Reasons {
		fmt.Fprintf(opts.IO.Out, "  %s\n", r)
	}
	return nil
}

// whyNotReady lists what keeps t out of the ready queue, nothing when it
// is in it.
func whyNotReady(s *store.Store, t *task.Task, now time.Time) []string {
	var why []string
	if t.State != task.Open {
		why = append(why, fmt.Sprintf("it is %s, not open", t.State))
	} else if t.Waits(now) {
		why = append(why, fmt.Sprintf("it is not to run before %s (bh edit %s and change its notBefore to run it sooner)",
			ui.NextRun(*t.NotBefore), t.ID))
	} else if w := ending.Settled(t); w != "" {
		why = append(why, fmt.Sprintf("it holds %s, which the worker lands without the agent (bh land %s lands it now)", w, t.ID))
	}
	for _, d := range t.DependsOn {
		dep, err := s.Get(d)
		var nf *task.NotFoundError
		switch {
		case errors.As(err, &nf):
			why = append(why, fmt.Sprintf("it depends on %s, which does not exist: drop it with bh edit %s", d, t.ID))
		case err != nil:
			why = append(why, fmt.Sprintf("it depends on %s, whose file cannot be read: %v", d, err))
		case dep.State != task.Closed:
			why = append(why, fmt.Sprintf("it waits on %s (%s): %s", d, dep.State, dep.Title))
		}
	}
	return why
}
