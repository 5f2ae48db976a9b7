// Package manifests builds the Kubernetes objects that run bh in a
// cluster (bh k8s manifests): worker pods that clone the shared git
// remote, and for per-task pods agent-sandbox's template and warm pool.
package manifests

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// The modes: agents run inside the worker pods, or each task in a pod of
// its own that the worker claims from agent-sandbox's warm pool.
const (
	Workers = "workers"
	Pods    = "pods"
)

// DefaultImage is a placeholder: the image is built from
// worker/kube/Containerfile and pushed where the cluster pulls from.
const DefaultImage = "ghcr.io/bh-tracker/bh:VERSION"

// Options are what bh k8s manifests asks for.
type Options struct {
	Image      string
	Remote     string // the URL the pods clone
	RemoteName string // what the repository's config calls it (remote:); "" is origin
	Namespace  string
	Mode       string
	Replicas   int // worker pods
	Warm       int // idle task pods kept ready (Pods)
	// MaxResult is k8s.maxResult, the bound on what a task pod's helper
	// pushes; "": its default (the worker's).
	MaxResult string
}

var dnsLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`) }) // at most 63: checked apart, cheaper to compile

// Check refuses options that could not make a working cluster.
func (o Options) Check() error {
	switch {
	case o.Mode != Workers && o.Mode != Pods:
		return fmt.Errorf("--mode must be %s or %s, not %q", Workers, Pods, o.Mode)
	case o.Remote == "":
		return errors.New("no remote to clone: pass --remote URL (or run this in a repository whose config names its remote:)")
	case len(o.Namespace) > 63 || !dnsLabel().MatchString(o.Namespace):
		return fmt.Errorf("--namespace %q is not a Kubernetes name (lower-case letters, digits and -, at most 63)", o.Namespace)
	case o.Image == "" || strings.ContainsAny(o.Image, " \t\n"):
		return fmt.Errorf("--image %q is not an image reference", o.Image)
	case min(o.Replicas, o.Warm) < 0:
		return errors.New("--replicas and --warm cannot be negative")
	}
	return secretFree(o.Remote)
}

// secretFree refuses a remote URL that carries a credential: the
// manifests are not secret, the bh-git Secret is.
func secretFree(remote string) error {
	u, err := url.Parse(remote)
	if err != nil || u.User == nil || u.Scheme != "http" && u.Scheme != "https" {
		return nil // ssh's user@host:path names no secret
	}
	u.User = nil
	return fmt.Errorf("the remote's URL carries a credential: use %s here and put the credential in the bh-git Secret", u)
}

// Write prints the objects as one YAML stream, after a comment that says
// what else the cluster needs: the Secrets and the repository's config.
func Write(w io.Writer, o Options) error {
	if err := o.Check(); err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(header(o))
	for _, obj := range objects(o) {
		b.WriteString("---\n")
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(obj); err != nil {
			return err
		}
		enc.Close()
	}
	_, err := w.Write(b.Bytes())
	return err
}

func header(o Options) string {
	config := "#   remote: " + remoteName(o) + "\n#   autoSync: 1m\n"
	if o.Mode == Pods {
		config += "#   runner: k8s\n"
		if o.Namespace != "bh" {
			config += "#   k8s: {namespace: " + o.Namespace + "}\n"
		}
	}
	return fmt.Sprintf(`# bh in Kubernetes (bh k8s manifests --mode %[1]s), for kubectl apply -f -.
# The pods share claims, work and sessions only through the remote: the
# repository's committed .bh/config.yaml must say
%[2]s# Then create the Secrets (the pods wait for bh-git):
#   kubectl -n %[3]s create secret generic bh-git \
#     --from-literal=credentials='https://USER:TOKEN@HOST'   # a git-credential-store line that may push
#   kubectl -n %[3]s create secret generic bh-agent \
#     --from-literal=ANTHROPIC_API_KEY=...   # or CLAUDE_CODE_OAUTH_TOKEN, OPENAI_API_KEY
%[4]s`, o.Mode, config, o.Namespace, readSecret(o))
}

// readSecret is the task pods' own credential, which can only fetch: no
// agent's container holds bh-git.
func readSecret(o Options) string {
	if o.Mode != Pods {
		return ""
	}
	return fmt.Sprintf(`#   kubectl -n %[1]s create secret generic bh-git-read \
#     --from-literal=credentials='https://USER:TOKEN@HOST'   # one that can only fetch (none for a public remote)
# A task pod's agent holds bh-git-read alone; bh-git is in its helper
# container, which pushes one ref, refs/bh/results/<task>.
`, o.Namespace)
}

func remoteName(o Options) string {
	if o.RemoteName == "" {
		return "origin"
	}
	return o.RemoteName
}

// objects are the cluster's objects, in the order they can be applied.
func objects(o Options) []object {
	pods := o.Mode == Pods
	ns := meta{Name: o.Namespace, Labels: partOf}
	in := func(name string) meta { return meta{Name: name, Namespace: o.Namespace, Labels: partOf} }
	objs := []object{
		{APIVersion: "v1", Kind: "Namespace", Metadata: ns},
		{APIVersion: "v1", Kind: "ServiceAccount", Metadata: in(worker), AutomountServiceAccountToken: &pods},
	}
	if pods {
		objs = append(objs,
			object{APIVersion: rbac, Kind: "Role", Metadata: in(worker), Rules: []rule{
				{APIGroups: []string{"extensions.agents.x-k8s.io"}, Resources: []string{"sandboxclaims"},
					Verbs: []string{"create", "get", "list", "watch", "delete"}},
				{APIGroups: []string{"agents.x-k8s.io"}, Resources: []string{"sandboxes"}, Verbs: []string{"get", "list", "watch"}},
				{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list", "watch"}},
			}},
			object{APIVersion: rbac, Kind: "RoleBinding", Metadata: in(worker),
				RoleRef:  &roleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: worker},
				Subjects: []subject{{Kind: "ServiceAccount", Name: worker, Namespace: o.Namespace}}})
	}
	objs = append(objs, object{APIVersion: "apps/v1", Kind: "StatefulSet", Metadata: in(worker), Spec: workerSet(o)})
	if pods {
		objs = append(objs,
			object{APIVersion: sandboxes, Kind: "SandboxTemplate", Metadata: in(task),
				Spec: sandboxTemplateSpec{PodTemplate: taskPod(o)}},
			object{APIVersion: sandboxes, Kind: "SandboxWarmPool", Metadata: in(task),
				Spec: warmPoolSpec{Replicas: o.Warm, SandboxTemplateRef: map[string]string{"name": task}}})
	}
	return objs
}

const (
	rbac      = "rbac.authorization.k8s.io/v1"
	sandboxes = "extensions.agents.x-k8s.io/v1beta1"
	worker    = "bh-worker" // the worker's ServiceAccount, Role, RoleBinding and StatefulSet
	task      = "bh-task"   // the per-task pods' SandboxTemplate and SandboxWarmPool
)

var partOf = map[string]string{"app.kubernetes.io/part-of": "bh"}
