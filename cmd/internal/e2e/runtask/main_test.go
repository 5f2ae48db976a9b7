// Package runtask runs bh run-task, the entrypoint of runner: k8s's task
// pods, as local processes: the worker (with worker/kube's runner) in the
// test, against a fake cluster whose pods the test binds and starts
// itself, with the annotations the SandboxClaim carried. A pod's agent
// container reads the remote through git daemon, which takes no push;
// its helper container alone writes the remote. Heavy tests, in a test
// binary of their own.
package runtask

import (
	"bytes"
	"context"
	"fmt"
	"net"
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
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/kube"
	"github.com/bh-tracker/bh/worker/kube/kubeapi"
	"github.com/bh-tracker/bh/worker/kube/kubeapi/clientgo"
	"github.com/bh-tracker/bh/worker/kube/kubetest"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

func TestMain(m *testing.M) { e2e.Main(k8sMain{m}, cmd.Main) }

// k8sMain stops the TestK8s* tests' control plane after the tests.
type k8sMain struct{ m *testing.M }

func (k k8sMain) Run() int { return kubetest.Main(k.m) }

// cluster is the shared remote (and a read-only way to it), the worker's
// clone with its runner, a fake or real cluster, and the pods run so far.
type cluster struct {
	root, bin, remote string
	readURL           string // the remote through git daemon: fetch only
	s                 *store.Store
	client            dynamic.Interface
	ns                string
	real              *kubetest.Cluster // nil: a fake cluster, bound by the test
	r                 *kube.Runner
	pods              int
	env               []string          // every pod's
	stop              func()            // stops the worker work started
	events            chan worker.Event // nil: not told; else every event of the worker's, when there is room
}

// newCluster makes the remote with config and one task per title (their
// ids returned), and the worker's clone of it, with a fake cluster.
func newCluster(t *testing.T, config string, titles ...string) (*cluster, []string) {
	client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		clientgo.GVR(kube.SandboxClaims): "SandboxClaimList", clientgo.GVR(kube.Sandboxes): "SandboxList", clientgo.GVR(kube.Pods): "PodList"})
	return newClusterOn(t, client, clientgo.Dynamic(client), "bh", config, titles...)
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
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(root, "gitconfig"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	cl.env = []string{"PATH=" + os.Getenv("PATH"), "BH_SANDBOX=off"}
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
	repo, err := git.Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	cl.readURL = readOnly(t, root)
	cl.client, cl.ns = client, ns
	cl.r = &kube.Runner{Client: api, Repo: repo, Remote: "origin", State: filepath.Join(root, "pod-sessions"),
		Poll: 20 * time.Millisecond, Warn: t.Logf}
	cl.r.K8s.BindTimeout.D, cl.r.K8s.Namespace = time.Hour, ns
	return cl, ids
}

// readOnly serves the repositories in root through git daemon, which
// takes fetches alone (receive-pack is off unless enabled), and returns
// the remote's URL there.
func readOnly(t *testing.T, root string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	d := exec.Command("git", "daemon", "--export-all", "--reuseaddr", "--listen=127.0.0.1", "--port="+strconv.Itoa(port),
		"--base-path="+root, root)
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Process.Kill(); d.Wait() })
	url := fmt.Sprintf("git://127.0.0.1:%d/remote.git", port)
	for end := time.Now().Add(time.Minute); exec.Command("git", "ls-remote", url).Run() != nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("git daemon does not serve %s", url)
		}
	}
	return url
}

// work runs the worker in the worker's clone, --once, with the k8s
// runner, beside the test, until it ends or the test does.
func (cl *cluster) work(t *testing.T) <-chan error {
	done, ended := make(chan error, 1), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); <-ended })
	cl.stop = cancel
	go func() {
		defer close(ended)
		done <- worker.Run(ctx, ctx, cl.s, worker.Options{Runner: cl.r, Once: true,
			Report: func(e worker.Event) {
				t.Logf("worker: %s %s %s", e.Kind, e.Task, e.Summary)
				select {
				case cl.events <- e:
				default:
				}
			}})
	}()
	return done
}

// pod is one task pod: its SandboxClaim, its name (BH_HOST), and the
// folders bh run-task reads, checks out into and leaves its result in.
type pod struct {
	name, podinfo, dir, out string
	claim                   *unstructured.Unstructured
}

// next waits for the SandboxClaim of task id the worker asks for, and
// binds it to a new running pod whose annotations file it writes.
func (cl *cluster) next(t *testing.T, id string, worker <-chan error) *pod {
	t.Helper()
	if cl.real != nil {
		cl.readyPool(t)
	}
	cl.pods++
	p := &pod{podinfo: filepath.Join(cl.root, fmt.Sprintf("pod-%d-info", cl.pods)),
		dir: filepath.Join(cl.root, fmt.Sprintf("pod-%d", cl.pods)), out: filepath.Join(cl.root, fmt.Sprintf("pod-%d-out", cl.pods))}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for p.claim == nil {
		select {
		case <-tick.C:
			p.claim = cl.claimOf(t, id)
		case err := <-worker:
			t.Fatalf("the worker asked for no pod: %v", err)
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
	l, err := cl.client.Resource(clientgo.GVR(kube.SandboxClaims)).Namespace(cl.ns).List(context.Background(), metav1.ListOptions{})
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
	if _, err := cl.client.Resource(clientgo.GVR(kube.SandboxClaims)).Namespace(cl.ns).Update(ctx, p.claim, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	pd := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": name, "namespace": cl.ns}, "status": map[string]any{"phase": "Running"}}}
	if _, err := cl.client.Resource(clientgo.GVR(kube.Pods)).Namespace(cl.ns).Create(ctx, pd, metav1.CreateOptions{}); err != nil {
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
		l, err := cl.client.Resource(clientgo.GVR(kube.Pods)).Namespace(cl.ns).List(context.Background(),
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
		c, err := cl.client.Resource(clientgo.GVR(kube.SandboxClaims)).Namespace(cl.ns).Get(ctx, p.claim.GetName(), metav1.GetOptions{})
		if err == nil {
			name, _, _ = unstructured.NestedString(c.Object, "status", "sandbox", "name")
		}
		return name != ""
	})
	if sb, err := cl.client.Resource(clientgo.GVR(kube.Sandboxes)).Namespace(cl.ns).Get(ctx, name, metav1.GetOptions{}); err == nil &&
		sb.GetAnnotations()["agents.x-k8s.io/pod-name"] != "" {
		name = sb.GetAnnotations()["agents.x-k8s.io/pod-name"]
	}
	var ann map[string]string
	cl.real.WaitFor(t, "the pod's annotations", func() bool {
		pd, err := cl.client.Resource(clientgo.GVR(kube.Pods)).Namespace(cl.ns).Get(ctx, name, metav1.GetOptions{})
		if err == nil {
			ann = pd.GetAnnotations()
		}
		return ann[kube.AnnotationRun] != ""
	})
	return name, ann
}

// run runs p's two containers to their end, as local processes with the
// pod's environment (and env's, the agent's only): bh run-task, which
// reads the remote through git daemon and can push nothing, then bh
// run-task --push-result, the helper, which alone may write the remote.
func (cl *cluster) run(t *testing.T, p *pod, env ...string) {
	t.Helper()
	state := "XDG_STATE_HOME=" + filepath.Join(cl.root, p.name+"-state")
	cl.process(t, p, "agent", append([]string{"BH_REMOTE=" + cl.readURL, state, "HOME=" + filepath.Join(cl.root, p.name+"-home")}, env...),
		"run-task", "--dir", p.dir, "--out", p.out, "--wait", "1m")
	cl.process(t, p, "result", []string{"BH_REMOTE=" + cl.remote, state},
		"run-task", "--push-result", p.out, "--dir", filepath.Join(cl.root, p.name+"-relay"), "--wait", "1m")
}

func (cl *cluster) process(t *testing.T, p *pod, name string, env []string, args ...string) {
	t.Helper()
	c := exec.Command(filepath.Join(cl.bin, "bh"), args...)
	c.Dir = cl.root
	c.Env = append(append(os.Environ(), cl.env...), "BH_PODINFO="+p.podinfo, "BH_HOST="+p.name)
	c.Env = append(c.Env, env...)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Run(); err != nil {
		t.Fatalf("bh %s in %s's %s container: %v\n%s", strings.Join(args, " "), p.name, name, err, out.String())
	}
	t.Logf("bh %s in %s's %s container:\n%s", args[0], p.name, name, out.String())
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

// claimGone reports whether p's SandboxClaim is deleted (or, its
// finalizers still at work, being deleted).
func (cl *cluster) claimGone(t *testing.T, p *pod) bool {
	c, err := cl.client.Resource(clientgo.GVR(kube.SandboxClaims)).Namespace(cl.ns).Get(t.Context(), p.claim.GetName(), metav1.GetOptions{})
	return apierrors.IsNotFound(err) || err == nil && c.GetDeletionTimestamp() != nil
}
