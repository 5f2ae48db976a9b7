package cmd

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/spf13/cobra"
)

type ClaimOptions struct {
	base
	ID     string
	Next   bool
	Remote bool // claim on the shared remote first
}

func newCmdClaim(f *Factory, runF func(*ClaimOptions) error) *cobra.Command {
	opts := &ClaimOptions{}
	c := &cobra.Command{
		Use:   "claim <id> | --next",
		Short: "Take a ready task by hand, so that no worker takes it",
		Long: `Take a task to work on it yourself: it moves to in_progress under a lease
named "hand", which no worker takes over or recovers. Only an open task whose
dependencies are all closed can be claimed, and of two claimers exactly one
wins. --next claims the first ready task in queue order (as bh ready lists
them). The claimed id is printed; with --json, the task.

With --remote, the claim is made first on the shared git remote (the
config's remote:, else origin) as refs/bh/claims/<id>, with an atomic
compare-and-swap push: of any number of machines racing, each task goes to
exactly one. Tasks another machine holds or finished are skipped.

Exit codes:
  0  claimed
  1  the task is not ready (not open, or waiting on dependencies), or with
     --next no task is ready
  2  usage error`,
		Example: `  bh claim a1b2
  bh claim --next --json
  bh claim --next --remote`,
		Args:              argsRange(0, 1, "one task id"),
		ValidArgsFunction: completeIDs(f, 1, func(t *task.Task) bool { return t.State == task.Open }),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), argAt(args, 0)
			return runWith(runF, claimRun, opts)
		},
	}
	c.Flags().BoolVarP(&opts.Next, "next", "n", false, "claim the first ready task")
	c.Flags().BoolVar(&opts.Remote, "remote", false, "claim it on the shared remote first (remote:, else origin), so no other machine takes it")
	return c
}

func claimRun(opts *ClaimOptions) error {
	switch {
	case opts.Next && opts.ID != "":
		return usageErrorf("give a task id or --next, not both")
	case !opts.Next && opts.ID == "":
		return usageErrorf("missing task id (or --next)")
	case opts.Remote && !opts.Next:
		return usageErrorf("--remote claims with --next")
	}
	s, err := opts.Store()
	if err != nil {
		return err
	}
	lease := claims.HandLease(opts.Now())
	var t *task.Task
	if opts.Next {
		if opts.Remote {
			t, err = worker.ClaimNextRemote(s, lease)
		} else {
			t, err = claims.Next(s, nil, lease, nil, ending.Settled)
		}
		if errors.Is(err, claims.ErrNothingReady) {
			return withHint(err, "bh list shows every task and its state; bh add creates one")
		}
	} else {
		var id string
		if id, err = s.Resolve(opts.ID); err != nil {
			return err
		}
		t, err = claims.Claim(s, id, lease, ending.Settled)
	}
	var nr *claims.NotReadyError
	if errors.As(err, &nr) {
		return notReady(s, nr)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "%s claimed %s  %s\n", ui.StateIcon(opts.IO, t.State), t.ID, t.Title)
	if opts.JSON {
		return writeJSON(opts.IO.Out, t)
	}
	fmt.Fprintln(opts.IO.Out, t.ID)
	return nil
}

// claimHints say what to do about a task that is not open, by its state
// (others: reopen it).
var claimHints = map[task.State]string{
	task.InProgress:    "someone works on it already: bh status %s",
	task.AwaitingInput: "it waits for your answer: bh respond %s",
}

// notReady says why a task cannot be claimed: its state, or each
// dependency it waits on with that one's state.
func notReady(s *store.Store, e *claims.NotReadyError) error {
	if e.Settled != "" {
		return withHint(fmt.Errorf("cannot claim %s: it holds %s, which lands without running the agent", e.ID, e.Settled),
			"bh land "+e.ID+" lands it now (or a running worker does)")
	}
	if e.State != task.Open {
		hint := cmp.Or(claimHints[e.State], "bh reopen %s makes it open again")
		return withHint(fmt.Errorf("cannot claim %s: it is %s, not open", e.ID, e.State), fmt.Sprintf(hint, e.ID))
	}
	if !e.NotBefore.IsZero() {
		return withHint(fmt.Errorf("cannot claim %s: it is not to run before %s", e.ID, ui.NextRun(e.NotBefore)),
			"bh edit "+e.ID+" and change its notBefore to run it sooner")
	}
	deps := make([]string, len(e.Waiting))
	for i, d := range e.Waiting {
		dep, err := s.Get(d)
		var nf *task.NotFoundError
		state := "unreadable"
		switch {
		case err == nil:
			state = string(dep.State)
		case errors.As(err, &nf):
			state = "missing"
		}
		deps[i] = fmt.Sprintf("%s (%s)", d, state)
	}
	return withHint(fmt.Errorf("cannot claim %s: it waits on %s", e.ID, strings.Join(deps, ", ")),
		"a task is ready once all it depends on is closed; bh ready lists the tasks that are")
}
