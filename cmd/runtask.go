package cmd

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/jail"
	"github.com/bh-tracker/bh/worker/kube"
	"github.com/spf13/cobra"
)

type RunTaskOptions struct {
	base
	Ctx  context.Context
	Dir  string
	Out  string
	Wait time.Duration
	Max  string // the bound on the result the helper pushes
	// Result, when set, makes this the pod's helper container: it pushes
	// the result the agent's container left in that folder, and nothing else.
	Result string
}

func newCmdRunTask(f *Factory, runF func(*RunTaskOptions) error) *cobra.Command {
	opts := &RunTaskOptions{}
	c := &cobra.Command{
		Use:   "run-task",
		Short: "Run the one agent run a task pod was given (runner: k8s pods start here)",
		Long: `Wait until this pod is given a run (the annotations bh.dev/task and
bh.dev/run in $BH_PODINFO/annotations, default /etc/bh/podinfo, which the
downward API fills when a SandboxClaim binds the pod), check out the run's
input (refs/bh/runs/<task> of $BH_REMOTE, the commit bh.dev/run names)
into --dir, a new folder, run the agent its config names on the request
the worker wrote there, and leave the result in --out (result.bundle, then
done). It pushes nothing: it needs a credential that can fetch, or none.

With --push-result DIR it is the pod's other container, the only one that
holds the credential that can push: it waits for the agent's container to
leave its result in DIR, and pushes that bundle's one ref,
refs/bh/results/<task>, refusing a bundle that names any other or is
bigger than --max-result. The worker checks what that ref holds before
it takes it.

Exit codes:
  0  the run's result was left (or pushed)
  1  error: no run given in --wait, the input cannot be fetched, ...
`,
		Example: `  BH_REMOTE=https://git.example.com/app.git bh run-task --dir /var/lib/bh/run --out /var/lib/bh-out`,
		Args:    argsRange(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			opts.base, opts.Ctx = f.base(), c.Context()
			return runWith(runF, runTaskRun, opts)
		},
	}
	c.Flags().StringVar(&opts.Dir, "dir", "run", "check the run out into `DIR` (the helper's: its scratch folder)")
	c.Flags().StringVar(&opts.Out, "out", "out", "leave the result in `DIR`, for the helper container")
	c.Flags().StringVar(&opts.Result, "push-result", "", "push the result the agent's container left in `DIR`, and nothing else")
	c.Flags().StringVar(&opts.Max, "max-result", fmt.Sprintf("%dMiB", config.DefaultMaxResult>>20), "with --push-result: push no result bigger than `SIZE` (k8s.maxResult)")
	c.Flags().DurationVar(&opts.Wait, "wait", 24*time.Hour, "give up when no run is given within `DURATION` (a warm pod waits long)")
	return c
}

func runTaskRun(opts *RunTaskOptions) error {
	remote := os.Getenv("BH_REMOTE")
	if remote == "" {
		return usageErrorf("BH_REMOTE names no git remote to fetch from")
	}
	ctx, cancel := context.WithTimeout(opts.Ctx, opts.Wait)
	defer cancel()
	if opts.Result != "" {
		max, err := config.ParseSize(opts.Max)
		if err != nil || max == 0 {
			return usageErrorf("--max-result %q: want a size such as 256MiB", opts.Max)
		}
		oid, err := kube.PushResult(ctx, kube.PodInfo(), opts.Result, opts.Dir, remote, max)
		if err == nil {
			fmt.Fprintf(opts.IO.Out, "pushed the result %s\n", oid)
		}
		return err
	}
	h, err := kube.WaitHanded(ctx, kube.PodInfo())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return err
	}
	commit, err := kube.RunPod(opts.Ctx, h, remote, opts.Dir, opts.Out, func(s *store.Store, t *task.Task) (agent.Runner, error) {
		// bh mcp as for a local run: the questions go to the run's outbox, carried in its result.
		return worker.NewRunner(s.Config.Agent.For(t), jail.MCPCommand())
	})
	if err == nil {
		fmt.Fprintf(opts.IO.Out, "left the result %s\n", commit)
	}
	return err
}
