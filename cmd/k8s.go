package cmd

import (
	"errors"

	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/kube/manifests"
	"github.com/spf13/cobra"
)

// K8sManifestsOptions holds its own few streams, not the shared base:
// bh k8s stays out of the commands' knot (house_test.go).
type K8sManifestsOptions struct {
	IO    *IOStreams
	Store func() (*store.Store, error)
	JSON  bool
	manifests.Options
	WarmSet bool // --warm was given
}

func newCmdK8s(f *Factory, runF func(*K8sManifestsOptions) error) *cobra.Command {
	k8s := &cobra.Command{
		Use:     "k8s <command>",
		Short:   "Run bh workers in Kubernetes",
		Example: `  bh k8s manifests --image registry.example.com/bh:1 | kubectl apply -f -`,
		Args:    noArgs,
		RunE:    func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	opts := &K8sManifestsOptions{}
	c := &cobra.Command{
		Use:   "manifests",
		Short: "Print the Kubernetes objects that run bh workers in a cluster",
		Long: `Print, as one YAML stream for kubectl apply, what a cluster needs to run
bh workers: the namespace, a ServiceAccount, and a StatefulSet of worker
pods, each running bh worker unchanged in a clone of the remote on a
volume of its own (cloned on the first start, fetched on the next). The
pods coordinate through the remote alone, as machines do: the repository's
.bh/config.yaml must name it (remote:) and sync with it (autoSync:).

With --mode pods, each task's agent runs in a pod of its own: the worker
(runner: k8s in the config) claims one from agent-sandbox's warm pool,
printed here as the SandboxTemplate and SandboxWarmPool bh-task, with the
Role that lets the worker claim them. The pod's agent cannot push: its
helper container alone holds bh-git and pushes one ref, the result, which
the worker checks and lands.

The Secrets are referenced, not printed: bh-git (key credentials, a
git-credential-store line that may push: the worker pods and the task
pods' helper), bh-git-read (one that can only fetch, for the task pods'
agent; optional) and bh-agent (the agents' keys, such as
ANTHROPIC_API_KEY); the output's first lines show how to create them.`,
		Example: `  bh k8s manifests --image registry.example.com/bh:1 | kubectl apply -f -
  bh k8s manifests --mode pods --warm 3 --remote https://github.com/acme/app.git`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			opts.IO, opts.Store, opts.JSON, opts.WarmSet = f.IO, f.Store, f.JSON, c.Flags().Changed("warm")
			if runF != nil {
				return runF(opts)
			}
			return k8sManifestsRun(opts)
		},
	}
	fl := c.Flags()
	fl.StringVar(&opts.Image, "image", manifests.DefaultImage, "the bh image the pods run (built from worker/kube/Containerfile)")
	fl.StringVar(&opts.Remote, "remote", "", "the git `URL` the pods clone and push to (default: the URL of the config's remote:)")
	fl.IntVar(&opts.Replicas, "replicas", 1, "how many worker pods run")
	fl.StringVar(&opts.Namespace, "namespace", "bh", "the Kubernetes namespace")
	fl.StringVar(&opts.Mode, "mode", manifests.Workers, "where agents run: workers (in the worker pods) or pods (a pod per task)")
	fl.IntVar(&opts.Warm, "warm", 1, "with --mode pods, how many idle task pods wait ready")
	k8s.AddCommand(c)
	return k8s
}

// noArgs refuses arguments as a usage error (argsRange would tie this
// file into the commands' knot).
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("unknown command %q for %q", args[0], c.CommandPath())
	}
	return nil
}

func k8sManifestsRun(opts *K8sManifestsOptions) error {
	o := opts.Options
	if opts.WarmSet && o.Mode != manifests.Pods {
		return usageErrorf("--warm is the pool of per-task pods: it needs --mode pods")
	}
	if o.Mode != manifests.Pods {
		o.Warm = 0
	}
	if s, err := opts.Store(); err == nil {
		fromRepo(opts, s, &o)
	}
	if err := o.Check(); err != nil {
		return &usageError{err}
	}
	if o.Image == manifests.DefaultImage {
		warn(opts.IO, opts.JSON, withHint(errors.New("the image "+o.Image+" is a placeholder"),
			"build worker/kube/Containerfile, push it where the cluster pulls from, and pass it as --image"))
	}
	return manifests.Write(opts.IO.Out, o)
}

// fromRepo takes the remote the pods share from the repository's config,
// and warns of what that config lacks for them.
func fromRepo(opts *K8sManifestsOptions, s *store.Store, o *manifests.Options) {
	o.RemoteName = s.Config.Remote
	if r, err := git.Open(s.Root); err == nil && o.Remote == "" && o.RemoteName != "" {
		o.Remote = r.RemoteURL(o.RemoteName)
	}
	if o.RemoteName == "" || s.Config.AutoSync.D == 0 {
		warn(opts.IO, opts.JSON, withHint(errors.New(".bh/config.yaml lacks remote: or autoSync:, without which worker pods share no claims and push nothing"),
			"add remote: origin and autoSync: 1m to .bh/config.yaml, and commit it"))
	}
	k := s.Config.K8s
	o.MaxResult = k.MaxResult
	if o.Mode == manifests.Pods && (s.Config.Runner != config.RunnerK8s || k.NamespaceOr() != o.Namespace || k.WarmPoolOr() != "bh-task") {
		warn(opts.IO, opts.JSON, withHint(errors.New(".bh/config.yaml does not run tasks in these pods"),
			"say runner: k8s there (and k8s: {namespace: "+o.Namespace+"} unless it is bh, with no other warmPool:), and commit it"))
	}
}
