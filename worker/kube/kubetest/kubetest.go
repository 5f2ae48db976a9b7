// Package kubetest runs the TestK8s* tests against a real Kubernetes control
// plane: etcd (Debian's etcd-server), kube-apiserver and the agent-sandbox
// controller, built by setup.sh into <repo>/.cache/k8s/bin, with the
// agent-sandbox CRDs installed. It is used by tests only. BH_K8S_BIN
// names another folder setup.sh filled (a checkout that built them).
//
// One control plane serves a whole test binary: the first Start starts it,
// later ones reuse it, and each test gets a fresh namespace. A package whose
// tests call Start stops it from its TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(kubetest.Main(m)) }
//
// Its processes also die with the test binary (proc's Pdeathsig). No kubelet
// or scheduler runs, so pods never start: MarkReady stands in for a kubelet.
package kubetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// Cluster is one test's view of the shared control plane.
type Cluster struct {
	Config    *rest.Config
	Dynamic   dynamic.Interface
	Namespace string // made fresh for the test
	plane     *plane
}

var (
	inMain   bool
	once     sync.Once
	shared   *plane
	startErr error
)

// Main runs the package's tests and then stops the control plane the
// first Start started, and removes the bh-kube BhKube built. Call it from
// TestMain.
func Main(m *testing.M) int {
	inMain = true
	code := m.Run()
	if shared != nil {
		shared.stop()
	}
	if bhKubeDir != "" {
		os.RemoveAll(bhKubeDir)
	}
	return code
}

// Start skips the test unless BH_K8S=1; otherwise it returns the shared
// control plane, started on first use, with a fresh namespace.
func Start(t testing.TB) *Cluster {
	t.Helper()
	if os.Getenv("BH_K8S") != "1" {
		t.Skip("BH_K8S=1 runs this against a real API server (built by worker/kube/kubetest/setup.sh)")
	}
	if !inMain {
		t.Fatal("kubetest: the package's TestMain must call kubetest.Main (it stops the shared control plane)")
	}
	once.Do(func() { shared, startErr = startPlane() })
	if startErr != nil {
		t.Fatal(startErr)
	}
	c := &Cluster{Config: rest.CopyConfig(shared.config), Dynamic: shared.dyn, plane: shared}
	ns := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"generateName": "bh-test-"},
	}}
	made, err := c.Dynamic.Resource(namespaces).Create(context.Background(), ns, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("kubetest: create namespace: %v", err)
	}
	c.Namespace = made.GetName()
	return c
}

var (
	pods       = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	namespaces = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
)

// MarkReady does what a kubelet would once the pod's containers run:
// phase Running, and the PodScheduled and Ready conditions True.
func (c *Cluster) MarkReady(t testing.TB, pod string) {
	t.Helper()
	now := time.Now().UTC().Format(time.RFC3339)
	var conds []any
	for _, typ := range []string{"PodScheduled", "Initialized", "ContainersReady", "Ready"} {
		conds = append(conds, map[string]any{"type": typ, "status": "True", "lastTransitionTime": now})
	}
	patch, err := (&unstructured.Unstructured{Object: map[string]any{"status": map[string]any{
		"phase": "Running", "conditions": conds, "podIP": "127.0.0.1",
		"podIPs": []any{map[string]any{"ip": "127.0.0.1"}},
	}}}).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Dynamic.Resource(pods).Namespace(c.Namespace).Patch(context.Background(), pod, types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	if err != nil {
		t.Fatalf("kubetest: mark pod %s ready: %v", pod, err)
	}
}

// Pod returns the pod name of the test's namespace.
func (c *Cluster) Pod(t testing.TB, name string) *unstructured.Unstructured {
	t.Helper()
	p, err := c.Dynamic.Resource(pods).Namespace(c.Namespace).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("kubetest: get pod %s: %v", name, err)
	}
	return p
}

// Apply creates every object of a multi-document YAML (or JSON) stream, in
// the test's namespace when an object names none, and fails the test with
// the server's message on the first refusal.
func (c *Cluster) Apply(t testing.TB, manifests []byte) {
	t.Helper()
	if err := c.plane.create(c.Namespace, manifests); err != nil {
		t.Fatal(err)
	}
}

// WaitFor polls cond until it holds, failing the test if it has not after
// a bound (fakeapi.Patience): the bound catches a hang, it does not order events.
func (c *Cluster) WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if err := poll(what, cond); err != nil {
		t.Fatal(err)
	}
}

// poll is WaitFor's loop; its bound is scaled to the machine's load.
func poll(what string, cond func() bool) error {
	bound := fakeapi.Patience(20 * time.Second)
	deadline := time.Now().Add(bound)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("kubetest: gave up after %s waiting for %s", bound, what)
		}
		<-tick.C
	}
	return nil
}

// create creates the objects of a YAML stream; objects of a namespaced
// kind that name no namespace go in ns.
func (p *plane) create(ns string, manifests []byte) error {
	dec := yaml.NewYAMLOrJSONDecoder(bytes.NewReader(manifests), 4096)
	for {
		var obj unstructured.Unstructured
		err := dec.Decode(&obj.Object)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("kubetest: decode manifests: %w", err)
		}
		if len(obj.Object) == 0 {
			continue
		}
		if err := p.createOne(ns, &obj); err != nil {
			return fmt.Errorf("kubetest: create %s %s: %w", obj.GetKind(), obj.GetName(), err)
		}
	}
}

func (p *plane) createOne(ns string, obj *unstructured.Unstructured) error {
	gvk := obj.GroupVersionKind()
	m, err := p.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if meta.IsNoMatchError(err) { // a kind whose CRD came after the mapper's last look
		p.mapper.Reset()
		m, err = p.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	}
	if err != nil {
		return err
	}
	var r dynamic.ResourceInterface = p.dyn.Resource(m.Resource)
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		if obj.GetNamespace() == "" {
			obj.SetNamespace(ns)
		}
		r = p.dyn.Resource(m.Resource).Namespace(obj.GetNamespace())
	}
	_, err = r.Create(context.Background(), obj, metav1.CreateOptions{})
	return err
}
