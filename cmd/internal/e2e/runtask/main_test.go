// Package runtask runs bh run-task, the entrypoint of runner: k8s's task
// pods, as local processes: the worker's side (worker/kube's runner) in
// the test, against a fake cluster whose pods the test binds and starts
// itself, with the annotations the SandboxClaim carried; each pod a fresh
// clone of one bare remote. Heavy tests, in a test binary of their own.
package runtask

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/cmd"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/kube"
	"github.com/bh-tracker/bh/worker/kube/kubeapi"
	"github.com/bh-tracker/bh/worker/kube/kubetest"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

func TestMain(m *testing.M) { e2e.Main(k8sMain{m}, cmd.Main) }

// k8sMain stops the TestK8s* tests' control plane after the tests.
type k8sMain struct{ m *testing.M }

func (k k8sMain) Run() int { return kubetest.Main(k.m) }

// cluster is the shared remote, the worker's clone with its runner (in
// this process), a fake cluster, and the pods run so far.
type cluster struct {
	root, bin, remote string
	s                 *store.Store
	c                 *claims.Remote
	client            dynamic.Interface
	ns                string
	real              *kubetest.Cluster // nil: a fake cluster, bound by the test
	r                 *kube.Runner
	pods              int
	env               []string // every pod's
}

// newCluster makes the remote with config and one task per title (their
// ids returned), and the worker's clone of it, with a fake cluster.
func newCluster(t *testing.T, config string, titles ...string) (*cluster, []string) {
	client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		kube.SandboxClaims.GVR(): "SandboxClaimList", kube.Sandboxes.GVR(): "SandboxList", kube.Pods.GVR(): "PodList"})
	return newClusterOn(t, client, kubeapi.Dynamic(client), "bh", config, titles...)
}

// newK8sCluster is newCluster on a real API server and agent-sandbox
// controller (kubetest: BH_K8S=1), with what bh k8s manifests --mode pods
// prints applied: the warm pool bh-task makes the pods, the test marks
// them Ready.
func newK8sCluster(t *testing.T, config string, titles ...string) (*cluster, []string) {
	k := kubetest.Start(t)
	ns := k.Namespace + "-run"
	cl, ids := newClusterOn(t, k.Dynamic, k.REST(t, ns), ns, config, titles...)
	k.Apply(t, []byte(e2e.Process(t, cl.root, "k8s", "manifests", "--mode", "pods", "--namespace", ns, "--remote", "https://git.example.com/app.git")))
	in := *k // MarkReady and WaitFor in the namespace the manifests made
	in.Namespace = ns
	cl.real = &in
	return cl, ids
}

// The runner asks the cluster through api; the test through client.
func newClusterOn(t *testing.T, client dynamic.Interface, api kubeapi.API, ns, config string, titles ...string) (*cluster, []string) {
	root := t.TempDir()
	cl := &cluster{root: root, bin: e2e.Bin(t, root), remote: filepath.Join(root, "remote.git")}
	t.Setenv("PATH", cl.bin+string(os.PathListSeparator)+os.Getenv("PATH")) // git's merge driver is bh
	e2e.Write(t, root, "gitconfig", "[user]\n\tname = pod\n\temail = pod@bh.invalid\n")
	cl.env = []string{"PATH=" + os.Getenv("PATH"), "GIT_CONFIG_GLOBAL=" + filepath.Join(root, "gitconfig"),
		"GIT_CONFIG_NOSYSTEM=1", "BH_SANDBOX=off", "BH_REMOTE=" + cl.remote}
	e2e.Git(t, root, "init", "-q", "--bare", "-b", "main", cl.remote)
	seed := filepath.Join(root, "seed")
	e2e.Process.Repo(t, seed, config)
	var ids []string
	for _, title := range titles {
		ids = append(ids, strings.TrimSpace(e2e.Process(t, seed, "add", title)))
	}
	e2e.Git(t, seed, "add", "-A")
	e2e.Git(t, seed, "commit", "-q", "-m", "tasks")
	e2e.Git(t, seed, "remote", "add", "origin", cl.remote)
	e2e.Git(t, seed, "push", "-q", "origin", "main")
	e2e.Git(t, root, "clone", "-q", cl.remote, "worker")
	s, err := store.Find(filepath.Join(root, "worker"))
	if err != nil {
		t.Fatal(err)
	}
	cl.s = s
	lease := s.Config.Lease.Or(time.Minute)
	cl.c = openClaims(t, s, lease)
	cl.client, cl.ns = client, ns
	cl.r = &kube.Runner{Client: api, Store: s, Lease: lease, Poll: 20 * time.Millisecond, Warn: t.Logf,
		Sync: func() error { _, err := worker.Sync(s, "", true); return err }}
	cl.r.K8s.BindTimeout.D, cl.r.K8s.Namespace = time.Hour, ns
	return cl, ids
}

// pod is one task pod: its SandboxClaim's run on the worker's side, its
// name (BH_HOST), and the folders bh run-task reads and clones into.
type pod struct {
	name, podinfo, dir string
	done               <-chan error // the worker's run of it
	claim              *unstructured.Unstructured
}

// handOut claims the next ready task as the worker's loop does, and
// hands it out (hand).
func (cl *cluster) handOut(t *testing.T) *pod {
	t.Helper()
	tk, err := claims.Next(cl.s, cl.c, claims.WorkerLease("worker", time.Now()), nil, nil)
	// A claim held by a dead pod holds until its lease runs out.
	for end := time.Now().Add(2 * time.Minute); errors.Is(err, claims.ErrNothingReady) && time.Now().Before(end); {
		time.Sleep(200 * time.Millisecond)
		tk, err = claims.Next(cl.s, cl.c, claims.WorkerLease("worker", time.Now()), nil, nil)
	}
	if err != nil {
		t.Fatalf("the worker claims: %v", err)
	}
	return cl.hand(t, tk)
}

// hand runs claimed task tk as runner: k8s does; the fake controller
// binds its SandboxClaim to a new running pod, whose annotations file it
// writes.
func (cl *cluster) hand(t *testing.T, tk *task.Task) *pod {
	t.Helper()
	if cl.real != nil {
		cl.readyPool(t)
	}
	done := make(chan error, 1)
	go func() { done <- cl.r.Run(context.Background(), tk, cl.c) }()
	cl.pods++
	p := &pod{done: done, podinfo: filepath.Join(cl.root, fmt.Sprintf("pod-%d-info", cl.pods)),
		dir: filepath.Join(cl.root, fmt.Sprintf("pod-%d", cl.pods))}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for p.claim == nil {
		select {
		case <-tick.C:
			p.claim = cl.claimOf(t, tk.ID)
		case err := <-done:
			t.Fatalf("no SandboxClaim was made: %v", err)
		}
	}
	var ann map[string]string
	if cl.real != nil {
		p.name, ann = cl.bound(t, p)
	} else {
		p.name, ann = fmt.Sprintf("pod-%d", cl.pods), cl.bind(t, p)
	}
	var b strings.Builder // as the downward API writes them
	for k, v := range ann {
		fmt.Fprintf(&b, "%s=%s\n", k, strconv.Quote(v))
	}
	os.MkdirAll(p.podinfo, 0o755)
	e2e.Write(t, p.podinfo, "annotations", b.String())
	return p
}

// claimOf is the SandboxClaim of task id that is not being deleted; nil
// for none.
func (cl *cluster) claimOf(t *testing.T, id string) *unstructured.Unstructured {
	l, err := cl.client.Resource(kube.SandboxClaims.GVR()).Namespace(cl.ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range l.Items {
		if c.GetAnnotations()[kube.AnnotationTask] == id && c.GetDeletionTimestamp() == nil {
			return &c
		}
	}
	return nil
}

// bind binds p's claim to a running pod, as the fake cluster's
// controller, and returns the annotations the pod got.
func (cl *cluster) bind(t *testing.T, p *pod) map[string]string {
	t.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("pod-%d", cl.pods)
	unstructured.SetNestedField(p.claim.Object, name, "status", "sandbox", "name")
	if _, err := cl.client.Resource(kube.SandboxClaims.GVR()).Namespace(cl.ns).Update(ctx, p.claim, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	pd := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": name, "namespace": cl.ns}, "status": map[string]any{"phase": "Running"}}}
	if _, err := cl.client.Resource(kube.Pods.GVR()).Namespace(cl.ns).Create(ctx, pd, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	ann, _, _ := unstructured.NestedStringMap(p.claim.Object, "spec", "additionalPodMetadata", "annotations")
	return ann
}

// readyPool marks the warm pool's pods Ready, as a kubelet would.
func (cl *cluster) readyPool(t *testing.T) {
	t.Helper()
	var pods []unstructured.Unstructured
	cl.real.WaitFor(t, "the warm pool's pod", func() bool {
		l, err := cl.client.Resource(kube.Pods.GVR()).Namespace(cl.ns).List(context.Background(),
			metav1.ListOptions{LabelSelector: "app.kubernetes.io/name=bh-task"})
		if err == nil {
			pods = l.Items
		}
		return len(pods) > 0
	})
	for _, p := range pods {
		if p.GetDeletionTimestamp() == nil {
			cl.real.MarkReady(t, p.GetName())
		}
	}
}

// bound waits for the controller to bind p's claim to a warm pod and pass
// it the annotations, and returns its name and annotations.
func (cl *cluster) bound(t *testing.T, p *pod) (string, map[string]string) {
	t.Helper()
	ctx := context.Background()
	var name string
	cl.real.WaitFor(t, "the SandboxClaim bound", func() bool {
		c, err := cl.client.Resource(kube.SandboxClaims.GVR()).Namespace(cl.ns).Get(ctx, p.claim.GetName(), metav1.GetOptions{})
		if err == nil {
			name, _, _ = unstructured.NestedString(c.Object, "status", "sandbox", "name")
		}
		return name != ""
	})
	if sb, err := cl.client.Resource(kube.Sandboxes.GVR()).Namespace(cl.ns).Get(ctx, name, metav1.GetOptions{}); err == nil &&
		sb.GetAnnotations()["agents.x-k8s.io/pod-name"] != "" {
		name = sb.GetAnnotations()["agents.x-k8s.io/pod-name"]
	}
	var ann map[string]string
	cl.real.WaitFor(t, "the pod's annotations", func() bool {
		pd, err := cl.client.Resource(kube.Pods.GVR()).Namespace(cl.ns).Get(ctx, name, metav1.GetOptions{})
		if err == nil {
			ann = pd.GetAnnotations()
		}
		return ann[kube.AnnotationClaim] != ""
	})
	return name, ann
}

// fail marks p's pod failed, as the kubelet does when it dies.
func (cl *cluster) fail(t *testing.T, p *pod) {
	t.Helper()
	patch := []byte(`{"status":{"phase":"Failed","reason":"Error","message":"killed"}}`)
	if _, err := cl.client.Resource(kube.Pods.GVR()).Namespace(cl.ns).Patch(context.Background(), p.name, types.MergePatchType, patch,
		metav1.PatchOptions{}, "status"); err != nil {
		t.Fatal(err)
	}
}

// runTask is p's entrypoint, bh run-task, as a local process with the
// pod's environment (and env's).
func (cl *cluster) runTask(p *pod, env ...string) *exec.Cmd {
	c := exec.Command(filepath.Join(cl.bin, "bh"), "run-task", "--dir", p.dir, "--wait", "1m")
	c.Dir = cl.root
	c.Env = append(append(os.Environ(), cl.env...), "BH_PODINFO="+p.podinfo, "BH_HOST="+p.name,
		"XDG_STATE_HOME="+filepath.Join(cl.root, p.name+"-state"))
	c.Env = append(c.Env, env...)
	return c
}

// run runs p's entrypoint to its end: it must exit 0.
func (cl *cluster) run(t *testing.T, p *pod, env ...string) {
	t.Helper()
	c := cl.runTask(p, env...)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Run(); err != nil {
		t.Fatalf("bh run-task in %s: %v\n%s", p.name, err, out.String())
	}
	t.Logf("bh run-task in %s:\n%s", p.name, out.String())
}

// remoteTask is task id as the remote's main holds it.
func (cl *cluster) remoteTask(t *testing.T, id string) *task.Task {
	t.Helper()
	b := e2e.Git(t, cl.root, "--git-dir", cl.remote, "show", "main:.bh/tasks/"+id+".yaml")
	tk, err := task.Decode(id+".yaml", []byte(b+"\n"), id)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// landed counts the commits on the remote's main that land id.
func (cl *cluster) landed(t *testing.T, id string) int {
	t.Helper()
	return strings.Count(e2e.Git(t, cl.root, "--git-dir", cl.remote, "log", "--format=%B", "main"), "bh-task: "+id)
}

func openClaims(t *testing.T, s *store.Store, ttl time.Duration) *claims.Remote {
	t.Helper()
	r, err := git.Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	c := claims.NewRemote(r, "origin", ttl, time.Now)
	// The worker's side runs nothing: what a claim carries is the pods'.
	c.Files = claims.Files{DropWorktree: func(string) error { return nil },
		ReadSession:  func(string, string) ([]byte, error) { return nil, os.ErrNotExist },
		WriteSession: func(string, string, []byte) error { return nil }}
	return c
}

// claimGone reports whether p's SandboxClaim is deleted (or, its
// finalizers still at work, being deleted).
func (cl *cluster) claimGone(t *testing.T, p *pod) bool {
	c, err := cl.client.Resource(kube.SandboxClaims.GVR()).Namespace(cl.ns).Get(t.Context(), p.claim.GetName(), metav1.GetOptions{})
	return apierrors.IsNotFound(err) || err == nil && c.GetDeletionTimestamp() != nil
}
