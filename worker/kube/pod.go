package kube

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
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
	cl, err := r.claims().Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return pod{bound: was.bound, name: was.name, trouble: "lost its SandboxClaim"}
	}
	sb, _, _ := unstructured.NestedString(objectOf(cl, err), "status", "sandbox", "name")
	if sb == "" {
		return was
	}
	now := pod{bound: true, name: sb}
	if s, err := r.Client.Resource(Sandboxes).Namespace(ns).Get(ctx, sb, metav1.GetOptions{}); err == nil {
		if p := s.GetAnnotations()[podNameAnnotation]; p != "" {
			now.name = p
		}
	}
	p, err := r.Client.Resource(Pods).Namespace(ns).Get(ctx, now.name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err) && was.name == now.name:
		now.trouble = "is gone"
	case err == nil:
		now.trouble, now.pull = podTrouble(p)
	}
	return now
}

func objectOf(u *unstructured.Unstructured, err error) map[string]any {
	if err != nil {
		return nil
	}
	return u.Object
}

// podTrouble is why pod p will not run its task: failed (evicted), being
// deleted, or its image cannot be pulled (pull).
func podTrouble(p *unstructured.Unstructured) (string, bool) {
	if p.GetDeletionTimestamp() != nil {
		return "is being deleted", false
	}
	phase, _, _ := unstructured.NestedString(p.Object, "status", "phase")
	if phase == "Failed" {
		reason, _, _ := unstructured.NestedString(p.Object, "status", "reason")
		msg, _, _ := unstructured.NestedString(p.Object, "status", "message")
		return fmt.Sprintf("failed (%s: %s)", reason, msg), false
	}
	statuses, _, _ := unstructured.NestedSlice(p.Object, "status", "containerStatuses")
	for _, s := range statuses {
		st, _ := s.(map[string]any)
		reason, _, _ := unstructured.NestedString(st, "state", "waiting", "reason")
		switch reason {
		case "ErrImagePull", "ImagePullBackOff", "InvalidImageName":
			msg, _, _ := unstructured.NestedString(st, "state", "waiting", "message")
			return fmt.Sprintf("cannot pull its image (%s: %s)", reason, msg), true
		}
	}
	return "", false
}
