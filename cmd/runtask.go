package cmd

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/kube"
	"github.com/spf13/cobra"
)

type RunTaskOptions struct {
	base
	Ctx  context.Context
	Dir  string
	Wait time.Duration
	// Result, when set, makes this the pod's helper container: it pushes
	// the result the agent's container left in that folder, and nothing else.
	Result string
}

func newCmdRunTask(f *Factory, runF func(*RunTaskOptions) error) *cobra.Command {
	opts := &RunTaskOptions{}
	c := &cobra.Command{
		Use:   "run-task",
		Short: "Run the one task this pod was given (the entrypoint of runner: k8s's pods)",
		Long: `Wait until this pod is given a task (the annotations bh.dev/task and
bh.dev/claim in $BH_PODINFO/annotations, default /etc/bh/podinfo, which the
downward API fills when a SandboxClaim binds the pod), clone $BH_REMOTE
into --dir (or bring the clone there up to date), take the task's claim
over from the worker that handed it, and run it as bh worker --once runs
a task: its parked work and session restored, its result landed and
pushed, or its question parked and pushed, and its claim released.

With --push-result DIR it is the pod's other container, the only one that
holds the credential that can push: it waits for the agent's container to
leave its result in DIR (result.bundle, then done), and pushes that
bundle's one ref, refs/bh/results/<task>, refusing a bundle that names any
other. The worker checks what that ref holds before it takes it.

Exit codes:
  0  the task was run, or was not this pod's to run any more
  1  error: no task given in --wait, the remote cannot be cloned, ...
  3  the worker cannot start (see bh worker)
`,
		Example: `  BH_REMOTE=https://git.example.com/team/app.git bh run-task --dir /var/lib/bh/repo`,
		Args:    argsRange(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			opts.base, opts.Ctx = f.base(), c.Context()
			return runWith(runF, runTaskRun, opts)
		},
	}
	c.Flags().StringVar(&opts.Dir, "dir", "repo", "clone the remote into `DIR`")
	c.Flags().StringVar(&opts.Result, "push-result", "", "push the result the agent's container left in `DIR`, and nothing else")
	c.Flags().DurationVar(&opts.Wait, "wait", 24*time.Hour, "give up when no task is given within `DURATION` (a warm pod waits long)")
	return c
}

func runTaskRun(opts *RunTaskOptions) error {
	remote := os.Getenv("BH_REMOTE")
	if remote == "" {
		return usageErrorf("BH_REMOTE names no git remote to clone")
	}
	ctx, cancel := context.WithTimeout(opts.Ctx, opts.Wait)
	if opts.Result != "" {
		defer cancel()
		oid, err := kube.PushResult(ctx, kube.PodInfo(), opts.Result, opts.Dir, remote)
		if err == nil {
			fmt.Fprintf(opts.IO.Out, "pushed the result %s\n", oid)
		}
		return err
	}
	h, err := kube.WaitHanded(ctx, kube.PodInfo())
	cancel()
	if err != nil {
		return err
	}
	s, err := kube.Checkout(remote, opts.Dir)
	if err != nil {
		return err
	}
	s.Now = opts.Now
	b := opts.base
	b.Store = func() (*store.Store, error) { return s, nil }
	return workerRun(&WorkerOptions{base: b, Ctx: opts.Ctx, Once: true, task: h.Task, token: h.Token})
}
