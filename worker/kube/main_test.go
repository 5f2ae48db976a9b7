package kube_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
	"github.com/bh-tracker/bh/worker/kube"
	"github.com/bh-tracker/bh/worker/kube/kubeapi"
	"github.com/bh-tracker/bh/worker/storegit"
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

// cluster is a worker's clone sharing one task through a bare remote,
// with a fake cluster to run it in.
type cluster struct {
	s      *store.Store
	c      *claims.Remote
	bare   string
	tk     *task.Task
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
	client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		kube.SandboxClaims.GVR(): "SandboxClaimList", kube.Sandboxes.GVR(): "SandboxList", kube.Pods.GVR(): "PodList"})
	cl := &cluster{s: s, c: claims.NewRemote(r, "origin", time.Minute, time.Now), bare: bare, tk: tk, client: client}
	cl.r = &kube.Runner{Client: kubeapi.Dynamic(client), Store: s, Lease: time.Minute, Poll: 5 * time.Millisecond,
		Sync: func() error { _, err := storegit.Sync(s, "", true); return err }, Warn: t.Logf}
	cl.r.K8s.BindTimeout.D = time.Hour
	return cl
}

// claim claims the task as the worker's loop does.
func (cl *cluster) claim(t *testing.T) {
	t.Helper()
	if _, err := claims.Next(cl.s, cl.c, claims.WorkerLease("worker", time.Now()), nil, nil); err != nil {
		t.Fatal(err)
	}
}

// run runs the task's pod as the worker does, beside the test.
func (cl *cluster) run(t *testing.T) <-chan error {
	done := make(chan error, 1)
	go func() { done <- cl.r.Run(context.Background(), cl.tk, cl.c) }()
	return done
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
	w, err := cl.client.Resource(kube.SandboxClaims.GVR()).Namespace("bh").Watch(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return w
}

// bind does what the controller does: the claim gets a Sandbox, which
// adopted a warm pod, in phase.
func (cl *cluster) bind(t *testing.T, claim *unstructured.Unstructured, podStatus map[string]any) {
	t.Helper()
	ctx := context.Background()
	unstructured.SetNestedField(claim.Object, "sb-1", "status", "sandbox", "name")
	if _, err := cl.client.Resource(kube.SandboxClaims.GVR()).Namespace("bh").Update(ctx, claim, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	sb := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "agents.x-k8s.io/v1beta1", "kind": "Sandbox",
		"metadata": map[string]any{"name": "sb-1", "namespace": "bh", "annotations": map[string]any{"agents.x-k8s.io/pod-name": "pod-1"}}}}
	if _, err := cl.client.Resource(kube.Sandboxes.GVR()).Namespace("bh").Create(ctx, sb, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	p := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "pod-1", "namespace": "bh"}, "status": podStatus}}
	if _, err := cl.client.Resource(kube.Pods.GVR()).Namespace("bh").Create(ctx, p, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// setPod changes the pod's status.
func (cl *cluster) setPod(t *testing.T, status map[string]any) {
	t.Helper()
	p, err := cl.client.Resource(kube.Pods.GVR()).Namespace("bh").Get(context.Background(), "pod-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p.Object["status"] = status
	if _, err := cl.client.Resource(kube.Pods.GVR()).Namespace("bh").Update(context.Background(), p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// podClone is the pod's side: a fresh clone of the remote, whose claims
// accept the token.
func (cl *cluster) podClone(t *testing.T, token string) (*store.Store, *claims.Remote) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pod")
	if err := git.Clone(cl.bare, dir); err != nil {
		t.Fatal(err)
	}
	s, err := store.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := git.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := claims.NewRemote(r, "origin", time.Minute, time.Now)
	c.Accept(cl.tk.ID, token)
	return s, c
}

// remoteClaim is the task's claim on the remote, as the worker fetches it.
func (cl *cluster) remoteClaim(t *testing.T) (string, *claims.RemoteClaim) {
	t.Helper()
	if err := cl.c.Fetch(); err != nil {
		t.Fatal(err)
	}
	oid, c, err := cl.c.Current(cl.tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	return oid, c
}
