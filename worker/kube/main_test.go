package kube_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
	"github.com/bh-tracker/bh/worker/kube"
	"github.com/bh-tracker/bh/worker/kube/kubeapi/clientgo"
	"github.com/bh-tracker/bh/worker/slots"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kwatch "k8s.io/apimachinery/pkg/watch"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

func TestMain(m *testing.M) {
	fakeapi.MemoryTemp()
	os.Exit(fakeapi.Isolated(m.Run))
}

// cluster is a worker's repository sharing one task through a bare
// remote, the task's worktree, and a fake cluster to run its agent in.
type cluster struct {
	s      *store.Store
	repo   *git.Repo
	bare   string
	tk     *task.Task
	wt     string // the task's worktree
	client *dynamicfake.FakeDynamicClient
	r      *kube.Runner
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	s := storetest.New(t)
	dir := s.Root
	bare := filepath.Join(t.TempDir(), "shared.git")
	gittest.Out(t, dir, "init", "-q", "--bare", bare)
	gittest.Out(t, dir, "remote", "add", "origin", bare)
	tk, err := s.Create(&task.Task{Title: "Run me in a pod"})
	if err != nil {
		t.Fatal(err)
	}
	gittest.Out(t, dir, "add", ".bh")
	gittest.Out(t, dir, "commit", "-q", "-m", "task")
	gittest.Out(t, dir, "push", "-q", "-u", "origin", "HEAD")
	s.Config.Remote = "origin"
	r, err := git.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Out(t, dir, "worktree", "add", "-q", "-b", slots.Branch(tk.ID), wt)
	client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		clientgo.GVR(kube.SandboxClaims): "SandboxClaimList", clientgo.GVR(kube.Sandboxes): "SandboxList", clientgo.GVR(kube.Pods): "PodList"})
	cl := &cluster{s: s, repo: r, bare: bare, tk: tk, wt: wt, client: client}
	cl.r = &kube.Runner{Client: clientgo.Dynamic(client), Repo: r, Remote: "origin", State: filepath.Join(t.TempDir(), "pods"),
		Poll: 5 * time.Millisecond, Warn: t.Logf}
	cl.r.K8s.BindTimeout.D = time.Hour
	return cl
}

// run runs the task's agent as the worker does, beside the test.
func (cl *cluster) run(t *testing.T, req agent.Request) <-chan outcome {
	req.Dir, req.TaskID = cl.wt, cl.tk.ID
	done := make(chan outcome, 1)
	go func() {
		o, err := cl.r.Run(context.Background(), req)
		done <- outcome{o, err}
	}()
	return done
}

type outcome struct {
	o   *agent.Outcome
	err error
}

// created waits for the SandboxClaim the runner creates.
func (cl *cluster) created(t *testing.T, w kwatch.Interface) *unstructured.Unstructured {
	t.Helper()
	for e := range w.ResultChan() {
		if e.Type == kwatch.Added {
			return e.Object.(*unstructured.Unstructured)
		}
	}
	t.Fatal("no SandboxClaim was created")
	return nil
}

// deleted waits for the SandboxClaim's deletion.
func deleted(t *testing.T, w kwatch.Interface) {
	t.Helper()
	for e := range w.ResultChan() {
		if e.Type == kwatch.Deleted {
			return
		}
	}
}

func (cl *cluster) watchClaims(t *testing.T) kwatch.Interface {
	t.Helper()
	w, err := cl.client.Resource(clientgo.GVR(kube.SandboxClaims)).Namespace("bh").Watch(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return w
}

// bind does what the controller does: the claim gets a Sandbox, which
// adopted a warm pod (the n-th), in phase.
func (cl *cluster) bind(t *testing.T, claim *unstructured.Unstructured, podStatus map[string]any, n int) {
	t.Helper()
	ctx := context.Background()
	sb, pod := fmt.Sprintf("sb-%d", n), fmt.Sprintf("pod-%d", n)
	unstructured.SetNestedField(claim.Object, sb, "status", "sandbox", "name")
	if _, err := cl.client.Resource(clientgo.GVR(kube.SandboxClaims)).Namespace("bh").Update(ctx, claim, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "agents.x-k8s.io/v1beta1", "kind": "Sandbox",
		"metadata": map[string]any{"name": sb, "namespace": "bh", "annotations": map[string]any{"agents.x-k8s.io/pod-name": pod}}}}
	if _, err := cl.client.Resource(clientgo.GVR(kube.Sandboxes)).Namespace("bh").Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	p := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": pod, "namespace": "bh"}, "status": podStatus}}
	if _, err := cl.client.Resource(clientgo.GVR(kube.Pods)).Namespace("bh").Create(ctx, p, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// pod runs what a task pod runs, given claim's annotations: the agent's
// container with runner as its agent (it pushes nothing), then the
// helper's push of the result.
func (cl *cluster) pod(t *testing.T, claim *unstructured.Unstructured, runner agent.Runner) {
	t.Helper()
	ann, _, _ := unstructured.NestedStringMap(claim.Object, "spec", "additionalPodMetadata", "annotations")
	h := kube.Handed{Task: ann[kube.AnnotationTask], Run: ann[kube.AnnotationRun]}
	root := t.TempDir()
	out, info := filepath.Join(root, "out"), filepath.Join(root, "podinfo")
	for _, d := range []string{out, info} {
		os.MkdirAll(d, 0o755)
	}
	_, err := kube.RunPod(context.Background(), h, cl.bare, filepath.Join(root, "run"), out,
		func(*store.Store, *task.Task) (agent.Runner, error) { return runner, nil })
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(info, "annotations"), []byte(kube.AnnotationTask+"=\""+h.Task+"\"\n"), 0o644)
	if _, err := kube.PushResult(context.Background(), info, out, filepath.Join(root, "scratch"), cl.bare, config.DefaultMaxResult); err != nil {
		t.Fatal(err)
	}
}

// inPod runs req as the worker does, in a pod, bound when the runner
// asks for it, whose agent is runner, and returns the run's end once
// the SandboxClaim is deleted.
func (cl *cluster) inPod(t *testing.T, req agent.Request, runner agent.Runner) outcome {
	t.Helper()
	w := cl.watchClaims(t)
	done := cl.run(t, req)
	claim := cl.created(t, w)
	cl.bind(t, claim, map[string]any{"phase": "Running"}, 0)
	cl.pod(t, claim, runner)
	got := <-done
	deleted(t, w)
	return got
}

// remoteRefs are the remote's refs under refs/bh/runs and refs/bh/results.
func (cl *cluster) remoteRefs(t *testing.T) string {
	return gittest.Out(t, cl.bare, "for-each-ref", "refs/bh/runs", "refs/bh/results")
}
