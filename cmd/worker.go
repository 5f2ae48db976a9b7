package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker"
	"github.com/spf13/cobra"
)

type WorkerOptions struct {
	base
	Ctx      context.Context
	Once     bool
	Timeout  time.Duration
	AgentCmd string
}

func newCmdWorker(f *Factory, runF func(*WorkerOptions) error) *cobra.Command {
	opts := &WorkerOptions{}
	c := &cobra.Command{
		Use:   "worker",
		Short: "Run the coding agent on ready tasks, one at a time",
		Long: `Take ready tasks one at a time, in queue order, and run the coding agent on
each (Claude Code unless .bh/config.yaml says otherwise). Its result decides:

  completed    exactly the agent's changes are committed with the task file
  failed       exactly the agent's changes are rolled back
  blocked,     the partial work is parked under refs/bh/parked/<id> (see
  needs_input  bh diff <id>) and the task waits; once answered with
               bh respond, the worker resumes the same agent session

A task with gate: approval (or a completion below the config's
gate.belowConfidence) is parked instead of committed and waits for
bh respond <id> --yes, which commits it without running the agent again,
or --no "feedback", which resumes the session with the feedback. A task
with human: false fails where it would have waited for a human. A question
nobody answers within its humanTimeout is handled as its onTimeout says:
fail, defer, default (take each question's default answer) or remind.

Your own edits and untracked files are never committed nor touched. Progress
goes to stderr; with --json, one object per event goes to stdout.

The worker runs until interrupted; with --once it stops when no task is
ready. The first Ctrl-C lets the running agent finish and its result be
applied; a second one stops the agent, parks its work and reopens the task.
Only one worker runs in a working tree at a time.

Exit codes:
  0  stopped cleanly
  1  error: another worker runs here, a git merge or rebase is in progress, ...`,
		Example: `  bh worker
  bh worker --once --timeout 20m
  bh worker --agent-cmd "./my-agent --fast"`,
		Args: argsRange(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			opts.base, opts.Ctx = f.base(), c.Context()
			if runF != nil {
				return runF(opts)
			}
			return workerRun(opts)
		},
	}
	c.Flags().BoolVar(&opts.Once, "once", false, "stop when no task is ready instead of waiting for more")
	c.Flags().DurationVar(&opts.Timeout, "timeout", 0, "stop an agent that runs longer than `DURATION` (20m, 1h)")
	c.Flags().StringVar(&opts.AgentCmd, "agent-cmd", "", "run this shell `COMMAND` as the agent instead of the configured one")
	return c
}

func workerRun(opts *WorkerOptions) error {
	if opts.Timeout < 0 {
		return usageErrorf("--timeout must be positive")
	}
	s, err := opts.Store()
	if err != nil {
		return err
	}
	if opts.AgentCmd != "" {
		// sh -c keeps the command's own quoting, as a user typed it.
		s.Config.Agent = task.AgentConfig{Kind: "command", Command: []string{"sh", "-c", opts.AgentCmd},
			Timeout: s.Config.Agent.Timeout}
	}
	p := &progress{io: opts.IO, w: opts.IO.ErrOut, json: opts.JSON, lookup: s.Get}
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	// The root context ends at the first Ctrl-C; kill must outlive it.
	kill, cancelKill := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelKill()
	stop, cancelStop := context.WithCancel(kill)
	defer cancelStop()
	defer onInterrupt(ctx, p, cancelStop, cancelKill)()

	err = worker.Run(stop, kill, s, worker.Options{Report: p.report, Once: opts.Once, Timeout: opts.Timeout})
	var busy *worker.BusyError
	if errors.As(err, &busy) {
		return withHint(err, "stop the other worker first, or let it do the work")
	}
	if err != nil {
		return err
	}
	if opts.Once && p.ran == 0 && !opts.JSON {
		fmt.Fprintln(opts.IO.ErrOut, "no task is ready")
	}
	return nil
}

// onInterrupt makes the first Ctrl-C (or SIGTERM) stop the worker once the
// running agent is done, and the second stop the agent too. A cancelled
// parent context counts as a first Ctrl-C. The returned func stops
// listening.
func onInterrupt(parent context.Context, p *progress, stop, kill func()) (done func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		parentDone := parent.Done()
		for n := 0; ; {
			select {
			case <-sigs:
				n++
				p.interrupted(n > 1)
				if n > 1 {
					kill()
					return
				}
				stop()
			case <-parentDone:
				parentDone = nil // the root's own signal handler, or a caller: stop, don't kill
				stop()
			case <-quit:
				return
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(quit)
		<-finished
	}
}
