package kube

import (
	"context"
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/worker/kube/kubeapi"
	"github.com/bh-tracker/bh/worker/kube/result"
)

// pod is what the cluster says of a SandboxClaim's pod.
type pod struct {
	bound   bool   // the claim has a Sandbox
	name    string // its pod's, once seen
	trouble string // why it will not run the task; "" while it may
	pull    bool   // the trouble is its image's
}

// podNameAnnotation names a warm pool's pod that a Sandbox adopted.
const podNameAnnotation = "agents.x-k8s.io/pod-name"

// look is what the cluster says now of SandboxClaim name's pod, was
// what it said last time. Trouble reading it is no trouble of the pod's.
func (r *Runner) look(ctx context.Context, name string, was pod) pod {
	ns := r.K8s.NamespaceOr()
	cl, err := r.Client.Get(ctx, SandboxClaims, ns, name)
	if errors.Is(err, kubeapi.ErrNotFound) {
		return pod{bound: was.bound, name: was.name, trouble: "lost its SandboxClaim"}
	}
	sb := kubeapi.String(cl, "status", "sandbox", "name")
	if sb == "" {
		return was
	}
	now := pod{bound: true, name: sb}
	if s, err := r.Client.Get(ctx, Sandboxes, ns, sb); err == nil {
		if p := kubeapi.String(s, "metadata", "annotations", podNameAnnotation); p != "" {
			now.name = p
		}
	}
	p, err := r.Client.Get(ctx, Pods, ns, now.name)
	switch {
	case errors.Is(err, kubeapi.ErrNotFound) && was.name == now.name:
		now.trouble = "is gone"
	case err == nil:
		now.trouble, now.pull = podTrouble(p)
	}
	return now
}

// podTrouble is why pod p will not run its task: failed (evicted), being
// deleted, its image cannot be pulled (pull), or its helper failed to
// push the result (one over its limit, say: its last words say why).
func podTrouble(p map[string]any) (string, bool) {
	if kubeapi.Value(p, "metadata", "deletionTimestamp") != nil {
		return "is being deleted", false
	}
	if kubeapi.String(p, "status", "phase") == "Failed" {
		return fmt.Sprintf("failed (%s: %s)", kubeapi.String(p, "status", "reason"), kubeapi.String(p, "status", "message")), false
	}
	statuses, _ := kubeapi.Value(p, "status", "containerStatuses").([]any)
	for _, s := range statuses {
		st, _ := s.(map[string]any)
		switch reason := kubeapi.String(st, "state", "waiting", "reason"); reason {
		case "ErrImagePull", "ImagePullBackOff", "InvalidImageName":
			return fmt.Sprintf("cannot pull its image (%s: %s)", reason, kubeapi.String(st, "state", "waiting", "message")), true
		}
		if why := helperFailed(st); why != "" {
			return why, false
		}
	}
	return "", false
}

// helperFailed is why a pod's helper container (manifests' "result")
// that exited in error did: the end of its log, as the cluster keeps it
// (terminationMessagePolicy: FallbackToLogsOnError), read as words only;
// "" when it did not fail. It pushes nothing it refused: waiting on it
// would be waiting for the claim's TTL.
func helperFailed(st map[string]any) string {
	if kubeapi.String(st, "name") != "result" {
		return ""
	}
	for _, state := range []string{"state", "lastState"} {
		t, _ := kubeapi.Value(st, state, "terminated").(map[string]any)
		if t != nil && fmt.Sprint(t["exitCode"]) != "0" { // an int64, or a float64 as JSON has it
			return "could not hand its result back: " + result.Plain(kubeapi.String(t, "message"))
		}
	}
	return ""
}
