package cmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/bh-tracker/bh/worker/act"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/kube/kubeapi/remote"

	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/kube"
	"github.com/spf13/cobra"
)

type WorkerOptions struct {
	base
	Ctx      context.Context
	Once     bool
	Jobs     int
	Timeout  time.Duration
	AgentCmd string
	Resume   bool
}

func newCmdWorker(f *Factory, runF func(*WorkerOptions) error) *cobra.Command {
	opts := &WorkerOptions{}
	c := &cobra.Command{
		Use:   "worker",
		Short: "Run the coding agent on ready tasks, each in its own worktree",
		Long: `Take ready tasks in queue order, up to -j at once (workers: in the config),
and run the coding agent on each (Claude Code unless .bh/config.yaml says
otherwise) in a linked worktree of its own, on branch bh/<id>, outside your
working tree. Its result decides:

  completed    the agent's changes and the task file become one commit on
               bh/<id>, landed on your branch: rebased if the branch moved,
               then fast-forwarded, git refusing to overwrite your changes
               (land: branch in the config keeps it on bh/<id> instead)
  failed       the worktree and its changes are discarded
  blocked,     the worktree is kept as it is and snapshotted under
  needs_input  refs/bh/parked/<id> (see bh diff <id>); once answered with
               bh respond, the worker resumes the same agent session there

A landing that git refuses because of your uncommitted changes asks you
(land after you commit or stash them: bh land <id>, or keep the branch);
a rebase conflict goes back to the agent's session to resolve.

A task with gate: approval (or a completion below the config's
gate.belowConfidence) is parked instead of committed and waits for
bh respond <id> --yes, which commits it without running the agent again,
or --no "feedback", which resumes the session with the feedback. A task
with human: false fails where it would have waited for a human. A question
nobody answers within its humanTimeout is handled as its onTimeout says:
fail, defer, default (take each question's default answer) or remind.

Your working tree is never written by a run: only a landing touches it,
through git merge --ff-only. Worktrees live in bh's state dir
(worktree.dir in the config); worktree.copy and worktree.setup prepare
them. A worker killed at any point finishes its runs on the next start.
Progress goes to stderr; with --json, one object per event goes to stdout
(see below).

The worker runs until interrupted; with --once it stops when no task is
ready. The first Ctrl-C lets the running agents finish and their results
be applied, and stops at once what bh runs itself (setup, checks,
recovery: a landing whose checks were stopped is finished on the next
start); a second one stops the agents, parks their work and reopens the
tasks. SIGTERM (a supervisor's stop: systemd, Kubernetes, kill) does the
second at once: the worker is gone within seconds, its tasks' sessions
and work kept. Only one worker runs in a repository at a time.

Exit codes:
  0  stopped cleanly
  1  error: another worker runs here, ...
  3  the worker cannot start: the agent is missing, git has no identity,
     or HEAD is detached and no target branch is named

` + jsonContract(),
		Example: `  bh worker
  bh worker -j 3
  bh worker --once --timeout 20m
  bh worker --agent-cmd "./my-agent --fast"`,
		Args: argsRange(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			opts.base, opts.Ctx = f.base(), c.Context()
			return runWith(runF, workerRun, opts)
		},
	}
	c.Flags().BoolVar(&opts.Once, "once", false, "stop when no task is ready instead of waiting for more")
	c.Flags().IntVarP(&opts.Jobs, "jobs", "j", 0, "run up to `N` agents at once (default: workers: in the config, else 1)")
	c.Flags().DurationVar(&opts.Timeout, "timeout", 0, "stop an agent that runs longer than `DURATION` (20m, 1h)")
	c.Flags().BoolVar(&opts.Resume, "resume", false, "end the usage limit's or the day's budget's pause first (limits.autoResume: false keeps a limit's past its reset)")
	c.Flags().StringVar(&opts.AgentCmd, "agent-cmd", "", "run this shell `COMMAND` as the agent instead of the configured one")
	return c
}

func workerRun(opts *WorkerOptions) error {
	if opts.Timeout < 0 {
		return usageErrorf("--timeout must be positive")
	}
	if opts.Jobs < 0 || opts.Jobs > config.MaxWorkers {
		return usageErrorf("-j must be 1 to %d", config.MaxWorkers)
	}
	s, err := opts.Store()
	if err != nil {
		return err
	}
	if opts.Resume {
		if err := act.Resume(s); err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		fmt.Fprintln(opts.IO.ErrOut, "the usage limit's pause is over: runs start again")
	}
	p := &progress{io: opts.IO, w: opts.IO.ErrOut, json: opts.JSON, lookup: s.Get}
	// The root context ends at the first Ctrl-C; kill must outlive it.
	kill, cancelKill := context.WithCancel(context.WithoutCancel(opts.Ctx))
	defer cancelKill()
	stop, cancelStop := context.WithCancel(kill)
	defer cancelStop()
	defer onInterrupt(opts.Ctx, p, cancelStop, cancelKill)()

	wo, err := opts.options(kill, s, p.report)
	if err != nil {
		return &exitCodeError{err, exitCannotStart} // no cluster to run in: as no agent to run
	}
	err = worker.Run(stop, kill, s, wo)
	var busy *claims.BusyError
	var pre *worker.PreflightError
	switch {
	case errors.As(err, &busy):
		return withHint(err, "stop the other worker first, or let it do the work")
	case errors.As(err, &pre):
		return &exitCodeError{err, exitCannotStart}
	}
	if err != nil {
		return err
	}
	if opts.Once && p.ran == 0 && !opts.JSON {
		fmt.Fprintln(opts.IO.ErrOut, "no task is ready")
	}
	return nil
}

// options is what the worker is told: the flags', and where its agents
// run (runner: k8s: in pods of their own).
func (opts *WorkerOptions) options(ctx context.Context, s *store.Store, report func(worker.Event)) (worker.Options, error) {
	if opts.AgentCmd != "" {
		// sh -c keeps the command's own quoting, as a user typed it.
		s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", opts.AgentCmd},
			Timeout: s.Config.Agent.Timeout}
	}
	wo := worker.Options{Report: report, Once: opts.Once, Jobs: opts.Jobs, Timeout: opts.Timeout}
	if s.Config.Runner != config.RunnerK8s {
		return wo, nil
	}
	client, ns, err := remote.Connect(ctx) // bh-kube lives as long as the worker
	if err != nil {
		return wo, err
	}
	k := s.Config.K8s
	k.Namespace = cmp.Or(k.Namespace, ns) // the config's, else the kubeconfig context's (in a pod: its own)
	repo, err := git.Open(s.Root)
	if err != nil {
		return wo, err
	}
	wo.Runner = &kube.Runner{Client: client, K8s: k, Repo: repo, Remote: s.Config.Remote, State: s.Local("pods"),
		Warn: func(format string, args ...any) {
			report(worker.Event{Kind: worker.Warning, Summary: fmt.Sprintf(format, args...)})
		}}
	return wo, nil
}

// onInterrupt makes the first Ctrl-C stop the worker once the running
// agent is done, and the second stop the agent too; SIGTERM, which a
// supervisor sends with a deadline, stops both at once. A cancelled
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
			case sig := <-sigs:
				n++
				if sig == syscall.SIGTERM {
					n = 2
				}
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
