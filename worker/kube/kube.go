// Package kube runs each task the worker claims in a pod of its own
// (runner: k8s): it hands the task's git claim to a pod that an
// agent-sandbox SandboxClaim takes from the warm pool, watches the claim
// and the pod, and deletes the SandboxClaim once the task has left the
// pod; and it is how that pod's entrypoint (bh run-task) finds its task.
package kube

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/kube/kubeapi"
)

// The annotations a task's pod reads: its task, and the token it takes
// the task's claim by (the hand-over claim's commit, claims.HandOver).
const (
	AnnotationTask  = "bh.dev/task"
	AnnotationClaim = "bh.dev/claim"
)

// The resources the runner reads and writes.
var (
	SandboxClaims = kubeapi.Resource{Group: "extensions.agents.x-k8s.io", Version: "v1beta1", Resource: "sandboxclaims"}
	Sandboxes     = kubeapi.Resource{Group: "agents.x-k8s.io", Version: "v1beta1", Resource: "sandboxes"}
	Pods          = kubeapi.Resource{Version: "v1", Resource: "pods"}
)

// Runner runs claimed tasks in pods of their own (worker.Place).
type Runner struct {
	Client kubeapi.API
	K8s    config.K8sConfig
	Store  *store.Store
	// Lease is how long a pod's claim holds without a heartbeat (the
	// config's lease:): a hand-over claim lasts BindTimeout longer.
	Lease time.Duration
	// Sync shares the store with the remote, pulling and pushing (bh sync).
	Sync func() error
	Poll time.Duration // how often the claim and the pod are looked at; default 2s
	Warn func(format string, args ...any)
}

// Run hands t, whose claim c holds, to a pod of the warm pool, and
// returns once the task has left it: the pod released its claim (the
// task ended or parked, its file and work pushed), or the pod failed.
// Until a pod has taken the claim the task can be taken back; after,
// the pod holds it until its lease runs out, and nothing runs it twice.
func (r *Runner) Run(ctx context.Context, t *task.Task, c *claims.Remote) error {
	if c == nil {
		return errors.New("runner: k8s needs remote: in the config")
	}
	name := claimName(t.ID)
	lease := task.Lease{Worker: name, Host: claims.Hostname()} // PID 0: no process's own
	token, err := r.handOver(ctx, t, c, name, lease)
	if err != nil {
		if back := c.TakeBack(t.ID, lease); back != nil {
			r.warnf("%s: take the claim back: %v (it runs out on its own)", t.ID, back)
		}
		return fmt.Errorf("%s: hand it to a pod: %w", t.ID, err)
	}
	w := &watch{r: r, c: c, id: t.ID, name: name, token: token, lease: lease}
	return w.run(ctx)
}

// handOver makes t open again here (the pod claims it in its own clone),
// pushes the hand-over claim and the task file, and asks for a pod whose
// annotations carry the token.
func (r *Runner) handOver(ctx context.Context, t *task.Task, c *claims.Remote, name string, lease task.Lease) (string, error) {
	if _, err := r.Store.Update(t.ID, func(t *task.Task) error {
		if t.State != task.InProgress {
			return fmt.Errorf("%s is %s: a human took it back", t.ID, t.State)
		}
		t.Lease = nil
		return t.SetState(task.Open, time.Now(), lease.Worker, "handed to a pod")
	}); err != nil {
		return "", err
	}
	token, err := c.HandOver(t.ID, lease, r.K8s.BindTimeoutOr()+r.Lease)
	if err != nil {
		return "", err
	}
	if err := r.Sync(); err != nil {
		return "", err
	}
	return token, r.Client.Create(ctx, SandboxClaims, r.K8s.NamespaceOr(), r.sandboxClaim(t.ID, name, token))
}

// sandboxClaim is the SandboxClaim of task id's pod.
func (r *Runner) sandboxClaim(id, name, token string) map[string]any {
	return map[string]any{
		"apiVersion": SandboxClaims.APIVersion(),
		"kind":       "SandboxClaim",
		"metadata":   map[string]any{"name": name, "namespace": r.K8s.NamespaceOr(), "annotations": map[string]any{AnnotationTask: id}},
		"spec": map[string]any{
			"warmPoolRef": map[string]any{"name": r.K8s.WarmPoolOr()},
			// The cluster deletes it by then whatever happens to this worker.
			"lifecycle": map[string]any{"shutdownPolicy": "Delete",
				"shutdownTime": time.Now().Add(r.K8s.ClaimTTLOr()).UTC().Format(time.RFC3339)},
			"additionalPodMetadata": map[string]any{"annotations": map[string]any{AnnotationTask: id, AnnotationClaim: token}},
		},
	}
}

func (r *Runner) warnf(format string, args ...any) {
	if r.Warn != nil {
		r.Warn(format, args...)
	}
}

var notName = regexp.MustCompile(`[^a-z0-9-]+`)

// claimName is a new SandboxClaim's name for task id: its own each time,
// so that one deleted a moment ago never stands in the way.
func claimName(id string) string {
	b := make([]byte, 3)
	rand.Read(b)
	n := strings.Trim(notName.ReplaceAllString(strings.ToLower(id), "-"), "-")
	return "bh-" + n[:min(len(n), 48)] + "-" + hex.EncodeToString(b)
}
