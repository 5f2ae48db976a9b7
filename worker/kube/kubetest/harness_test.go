package kubetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/kube/kubeapi"
	"github.com/bh-tracker/bh/worker/kube/kubeapi/remote"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

var (
	sandboxes = schema.GroupVersionResource{Group: "agents.x-k8s.io", Version: "v1beta1", Resource: "sandboxes"}
	claims    = schema.GroupVersionResource{Group: "extensions.agents.x-k8s.io", Version: "v1beta1", Resource: "sandboxclaims"}
)

// The template and warm pool a task pod comes from, as the runner
// creates them (names fixed for issue 32).
const warmPool = `
apiVersion: extensions.agents.x-k8s.io/v1beta1
kind: SandboxTemplate
metadata: {name: bh-task}
spec:
  podTemplate:
    spec:
      containers:
      - {name: task, image: bh:test, command: [bh, run-task]}
---
apiVersion: extensions.agents.x-k8s.io/v1beta1
kind: SandboxWarmPool
metadata: {name: bh-task}
spec:
  replicas: 1
  sandboxTemplateRef: {name: bh-task}
`

// The claim a worker makes for a task. What the controller does with it,
// measured here (agent-sandbox v0.5.6, for the runner):
//   - spec.warmPoolRef.name (required) names the SandboxWarmPool; the claim
//     adopts one of its Sandboxes whose pod is Ready;
//   - spec.additionalPodMetadata.annotations reach that running pod's
//     metadata.annotations (no restart; spec.env would force a cold pod);
//   - status.sandbox.name is the adopted Sandbox; its pod is named by the
//     Sandbox's annotation agents.x-k8s.io/pod-name;
//   - status.conditions[type=Ready] turns True once bound.
const claim = `
apiVersion: extensions.agents.x-k8s.io/v1beta1
kind: SandboxClaim
metadata: {name: task-1}
spec:
  warmPoolRef: {name: bh-task}
  additionalPodMetadata:
    annotations: {bh.dev/task: tk-1, bh.dev/claim: token-1}
`

func TestK8sHarness(t *testing.T) {
	c := Start(t)
	ctx := context.Background()
	for _, crd := range []string{"sandboxes.agents.x-k8s.io", "sandboxclaims.extensions.agents.x-k8s.io",
		"sandboxtemplates.extensions.agents.x-k8s.io", "sandboxwarmpools.extensions.agents.x-k8s.io"} {
		if !c.plane.established(crd) {
			t.Fatalf("CRD %s not Established", crd)
		}
	}
	c.Apply(t, []byte(warmPool))
	var warm string
	c.WaitFor(t, "the warm pool's pod", func() bool {
		l, err := c.Dynamic.Resource(pods).Namespace(c.Namespace).List(ctx, metav1.ListOptions{})
		if err != nil || len(l.Items) == 0 {
			return false
		}
		warm = l.Items[0].GetName()
		return true
	})
	c.MarkReady(t, warm)
	c.Apply(t, []byte(claim))

	var podName string
	c.WaitFor(t, "the claim to bind", func() bool {
		cl, err := c.Dynamic.Resource(claims).Namespace(c.Namespace).Get(ctx, "task-1", metav1.GetOptions{})
		if err != nil {
			return false
		}
		sb, _, _ := unstructured.NestedString(cl.Object, "status", "sandbox", "name")
		if sb == "" {
			return false
		}
		s, err := c.Dynamic.Resource(sandboxes).Namespace(c.Namespace).Get(ctx, sb, metav1.GetOptions{})
		if err != nil {
			return false
		}
		podName = s.GetAnnotations()["agents.x-k8s.io/pod-name"]
		return podName != ""
	})
	if podName != warm {
		t.Fatalf("the claim got pod %s, not the warm pod %s", podName, warm)
	}
	c.WaitFor(t, "the task annotation on the pod", func() bool {
		a := c.Pod(t, warm).GetAnnotations()
		return a["bh.dev/task"] == "tk-1" && a["bh.dev/claim"] == "token-1"
	})
}

// Without the binaries Start fails (it does not skip) and says what builds them.
func TestMissingBinariesNameSetup(t *testing.T) {
	t.Setenv("BH_K8S_BIN", t.TempDir())
	_, err := startPlane()
	if err == nil || !strings.Contains(err.Error(), "worker/kube/kubetest/setup.sh") {
		t.Fatalf("startPlane without binaries: %v", err)
	}
}

// TestK8sKubeconfig: the runner's client, bh-kube, which loads the
// kubeconfig through clientcmd from two KUBECONFIG files merged, logs in
// through the exec plugin of the context's user and takes the context's
// namespace.
func TestK8sKubeconfig(t *testing.T) {
	k := Start(t)
	kc := k.Kubeconfig(t, k.Namespace)
	BhKube(t)
	t.Setenv("KUBECONFIG", kc)
	api, ns, err := remote.Connect(t.Context())
	if err != nil || ns != k.Namespace {
		t.Fatalf("client: namespace %q, %v", ns, err)
	}
	pod := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "p"},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "bh:test"}}}}
	if err := api.Create(t.Context(), kubeapi.Resource{Version: "v1", Resource: "pods"}, ns, pod); err != nil {
		t.Fatal(err)
	}
	if got := k.Pod(t, "p"); got.GetName() != "p" {
		t.Fatalf("the pod: %v", got)
	}
	plugin := strings.SplitN(kc, string(os.PathListSeparator), 2)[0]
	if runs, err := os.ReadFile(filepath.Join(filepath.Dir(plugin), "plugin.runs")); err != nil || len(runs) == 0 {
		t.Fatalf("the exec plugin did not run: %v", err)
	}
}
