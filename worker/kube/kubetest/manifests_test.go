package kubetest

import (
	"bytes"
	"cmp"
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bh-tracker/bh/worker/kube/manifests"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/yaml"
)

// TestK8sManifestsAccepted applies what bh k8s manifests prints, in both
// modes, each to a namespace of its own (the stream creates it).
func TestK8sManifestsAccepted(t *testing.T) {
	c := Start(t)
	dir := t.TempDir()
	bh := filepath.Join(dir, "bh")
	if out, err := exec.Command("go", "build", "-o", bh, "github.com/bh-tracker/bh").CombinedOutput(); err != nil {
		t.Fatalf("go build bh: %v\n%s", err, out)
	}
	for _, mode := range []string{"", "pods"} { // the default mode, then a pod per task
		args := []string{"k8s", "manifests", "--namespace", c.Namespace + "-" + cmp.Or(mode, "workers"),
			"--remote", "https://git.example.com/acme/app.git", "--replicas", "2"}
		if mode != "" {
			args = append(args, "--mode", mode)
		}
		cmd := exec.Command(bh, args...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir, "HOME="+dir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bh %v: %v\n%s", args, err, stderr.Bytes())
		}
		c.Apply(t, out)
	}
	// The controller accepts the printed template too: it makes the pool's pod.
	var pod map[string]any
	c.WaitFor(t, "the printed warm pool's pod", func() bool {
		l, err := c.Dynamic.Resource(pods).Namespace(c.Namespace+"-pods").List(context.Background(),
			metav1.ListOptions{LabelSelector: "app.kubernetes.io/name=bh-task"})
		if err == nil && len(l.Items) == 1 {
			pod = l.Items[0].Object
		}
		return pod != nil
	})
	// The pod as the cluster made it from the template: its agent's
	// container reaches no Secret that can push, its helper alone does.
	if got := pushHolders(pod); !slices.Equal(got, []string{"result"}) {
		t.Fatalf("the containers that reach the bh-git Secret: %v, want the helper result alone", got)
	}
}

// pushHolders are the containers of pod that can read the bh-git Secret:
// through a volume they mount (a secret or a projected one), their env or
// their envFrom.
func pushHolders(pod map[string]any) []string {
	spec, _ := pod["spec"].(map[string]any)
	pushVols := map[string]bool{}
	for _, v := range list(spec["volumes"]) {
		if names(v).Contains("bh-git") {
			pushVols[v["name"].(string)] = true
		}
	}
	var out []string
	for _, c := range append(list(spec["containers"]), list(spec["initContainers"])...) {
		holds := names(map[string]any{"env": c["env"], "envFrom": c["envFrom"]}).Contains("bh-git")
		for _, m := range list(c["volumeMounts"]) {
			holds = holds || pushVols[m["name"].(string)]
		}
		if holds {
			out = append(out, c["name"].(string))
		}
	}
	return out
}

func list(v any) []map[string]any {
	var out []map[string]any
	for _, x := range asSlice(v) {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

type secretNames map[string]bool

func (n secretNames) Contains(s string) bool { return n[s] }

// names are the Secrets named anywhere in v: secretName, or a name in a
// secret, secretRef or secretKeyRef.
func names(v any) secretNames {
	out := secretNames{}
	var walk func(k string, v any)
	walk = func(k string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for kk, vv := range x {
				if (k == "secret" || k == "secretRef" || k == "secretKeyRef") && kk == "name" || kk == "secretName" {
					if s, ok := vv.(string); ok {
						out[s] = true
					}
				}
				walk(kk, vv)
			}
		case []any:
			for _, vv := range x {
				walk(k, vv)
			}
		}
	}
	walk("", v)
	return out
}

// TestPushHoldersSeesTheSecret: the check above, without a cluster, over
// the printed template, and over one whose agent's container is given
// bh-git again (as the pods had it before the helper): it must say so.
func TestPushHoldersSeesTheSecret(t *testing.T) {
	var b bytes.Buffer
	if err := manifests.Write(&b, manifests.Options{Image: "bh", Remote: "https://git.example.com/a.git",
		Namespace: "bh", Mode: manifests.Pods, Warm: 1}); err != nil {
		t.Fatal(err)
	}
	var pod map[string]any
	dec := yaml.NewYAMLOrJSONDecoder(&b, 4096)
	for {
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			break
		}
		if obj["kind"] == "SandboxTemplate" {
			pod = obj["spec"].(map[string]any)["podTemplate"].(map[string]any)
		}
	}
	if got := pushHolders(pod); !slices.Equal(got, []string{"result"}) {
		t.Fatalf("the printed template: %v reach bh-git, want result alone", got)
	}
	spec := pod["spec"].(map[string]any)
	agent := spec["containers"].([]any)[0].(map[string]any)
	agent["volumeMounts"] = append(agent["volumeMounts"].([]any), map[string]any{"name": "push", "mountPath": "/x"})
	if got := pushHolders(pod); !slices.Equal(got, []string{"task", "result"}) {
		t.Fatalf("with bh-git mounted in the agent's container: %v, want task and result", got)
	}
}
