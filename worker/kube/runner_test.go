package kube_test

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/kube"
	"github.com/bh-tracker/bh/worker/storegit"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

var running = map[string]any{"phase": "Running"}

// TestRunnerHandsTaskToPod: the worker asks the warm pool for a pod with
// the task and its token as annotations; the pod takes the claim with
// the token, ends or parks the task and releases the claim; the worker
// then deletes the SandboxClaim and has the task's new state.
func TestRunnerHandsTaskToPod(t *testing.T) {
	for _, end := range []task.State{task.Closed, task.AwaitingInput} {
		t.Run(string(end), func(t *testing.T) {
			cl := newCluster(t)
			cl.claim(t)
			w := cl.watchClaims(t)
			done := cl.run(t)
			obj := cl.created(t, w)
			ann, _, _ := unstructured.NestedStringMap(obj.Object, "spec", "additionalPodMetadata", "annotations")
			oid, held := cl.remoteClaim(t)
			if ann[kube.AnnotationTask] != cl.tk.ID || ann[kube.AnnotationClaim] != oid || held.PID != 0 {
				t.Fatalf("annotations %v, the claim %s %+v", ann, oid, held)
			}
			if pool, _, _ := unstructured.NestedString(obj.Object, "spec", "warmPoolRef", "name"); pool != "bh-task" {
				t.Fatalf("warm pool %q", pool)
			}
			if ttl, _, _ := unstructured.NestedString(obj.Object, "spec", "lifecycle", "shutdownTime"); ttl == "" {
				t.Fatal("no TTL on the claim")
			}
			cl.bind(t, obj, running)

			s2, c2 := cl.podClone(t, ann[kube.AnnotationClaim])
			lease := task.Lease{Worker: "worker", Host: "pod-1", PID: os.Getpid()}
			if _, err := claims.Next(s2, c2, lease, nil, nil); err != nil {
				t.Fatalf("the pod takes its task: %v", err)
			}
			tk, err := s2.Update(cl.tk.ID, func(t *task.Task) error { return t.SetState(end, time.Now(), "worker", "ran") })
			if err != nil {
				t.Fatal(err)
			}
			c2.Unclaim(tk, lease)
			if _, err := storegit.Sync(s2, "", true); err != nil {
				t.Fatal(err)
			}
			c2.HandOff(s2, []string{tk.ID}, lease)

			if err := <-done; err != nil {
				t.Fatalf("the run: %v", err)
			}
			deleted(t, w)
			if got, err := cl.s.Get(cl.tk.ID); err != nil || got.State != end {
				t.Fatalf("the worker's task after: %v %v", got.State, err)
			}
		})
	}
}

// TestRunnerBindTimeoutHandsTaskBack: a claim no pod binds in time is
// deleted and the task taken back (an outage of the pool: claims
// pause), and a pod bound late cannot take it with the old token.
func TestRunnerBindTimeoutHandsTaskBack(t *testing.T) {
	cl := newCluster(t)
	cl.r.K8s.BindTimeout.D = 50 * time.Millisecond
	cl.claim(t)
	w := cl.watchClaims(t)
	done := cl.run(t)
	obj := cl.created(t, w)
	err := <-done
	if re := (*agent.RunError)(nil); !errors.As(err, &re) || re.Outage == "" {
		t.Fatalf("want an outage, got %v", err)
	}
	deleted(t, w)
	if _, held := cl.remoteClaim(t); held == nil || held.State != claims.Released {
		t.Fatalf("the claim after: %+v", held)
	}
	if got, _ := cl.s.Get(cl.tk.ID); got.State != task.Open {
		t.Fatalf("the task is %s here", got.State)
	}
	ann, _, _ := unstructured.NestedStringMap(obj.Object, "spec", "additionalPodMetadata", "annotations")
	s2, c2 := cl.podClone(t, ann[kube.AnnotationClaim])
	if _, err := claims.Next(s2, c2, task.Lease{Worker: "worker", Host: "late", PID: 3}, nil, nil); !errors.Is(err, claims.ErrNothingReady) {
		t.Fatalf("a late pod took the task: %v", err)
	}
}

// TestRunnerImagePullHandsTaskBack: a pod whose image cannot be pulled
// never takes its task: the worker takes it back at once, an outage.
func TestRunnerImagePullHandsTaskBack(t *testing.T) {
	cl := newCluster(t)
	cl.claim(t)
	w := cl.watchClaims(t)
	done := cl.run(t)
	cl.bind(t, cl.created(t, w), map[string]any{"phase": "Pending", "containerStatuses": []any{
		map[string]any{"name": "bh", "state": map[string]any{"waiting": map[string]any{"reason": "ImagePullBackOff", "message": "no such image"}}}}})
	err := <-done
	if re := (*agent.RunError)(nil); !errors.As(err, &re) || re.Outage == "" {
		t.Fatalf("want an outage, got %v", err)
	}
	deleted(t, w)
	if _, held := cl.remoteClaim(t); held == nil || held.State != claims.Released {
		t.Fatalf("the claim after: %+v", held)
	}
}

// TestRunnerPodFailureRunsNothingTwice: a pod evicted after it took its
// task keeps the claim until its lease runs out: the SandboxClaim is
// deleted, the run returns an error, and neither the worker nor another
// pod with the same token takes the task meanwhile.
func TestRunnerPodFailureRunsNothingTwice(t *testing.T) {
	cl := newCluster(t)
	cl.claim(t)
	w := cl.watchClaims(t)
	done := cl.run(t)
	obj := cl.created(t, w)
	cl.bind(t, obj, running)
	ann, _, _ := unstructured.NestedStringMap(obj.Object, "spec", "additionalPodMetadata", "annotations")
	s2, c2 := cl.podClone(t, ann[kube.AnnotationClaim])
	if _, err := claims.Next(s2, c2, task.Lease{Worker: "worker", Host: "pod-1", PID: 2}, nil, nil); err != nil {
		t.Fatal(err)
	}
	cl.setPod(t, map[string]any{"phase": "Failed", "reason": "Evicted", "message": "the node ran out of memory"})
	if err := <-done; err == nil {
		t.Fatal("a failed pod's run returned no error")
	}
	deleted(t, w)
	if _, held := cl.remoteClaim(t); held == nil || held.State != claims.Held || held.Host != "pod-1" {
		t.Fatalf("the claim after: %+v", held)
	}
	if got, err := claims.Next(cl.s, cl.c, claims.WorkerLease("worker", time.Now()), nil, nil); !errors.Is(err, claims.ErrNothingReady) {
		t.Fatalf("the worker took the task again at once: %v %v", got, err)
	}
	s3, c3 := cl.podClone(t, ann[kube.AnnotationClaim])
	if _, err := claims.Next(s3, c3, task.Lease{Worker: "worker", Host: "pod-2", PID: 3}, nil, nil); !errors.Is(err, claims.ErrNothingReady) {
		t.Fatalf("a second pod took the task: %v", err)
	}
}
