// Package kubeapi is the little of the Kubernetes API that bh's runner: k8s
// uses: create, get and delete an object, by its JSON. The client itself,
// client-go's, runs in a process of its own, bh-kube (remote, clientgo):
// linked into bh, client-go's package initialisation cost every bh command
// about 1 ms of CPU, a tenth of bh show (perf record of 40 bh show and 40
// bh add at 10k tasks: its packages' init 12 % of show's samples, 11 % of
// add's), for a runner few commands start.
package kubeapi

import (
	"context"
	"errors"
)

// API is what the runner asks of the cluster; objects are their JSON.
type API interface {
	Create(ctx context.Context, r Resource, ns string, obj map[string]any) error
	Get(ctx context.Context, r Resource, ns, name string) (map[string]any, error)
	Delete(ctx context.Context, r Resource, ns, name string) error
}

// ErrNotFound is the server's 404: no such object.
var ErrNotFound = errors.New("not found")

// Resource names a kind of object by its API group ("" the core group),
// version and plural resource name.
type Resource struct {
	Group    string `json:"group,omitempty"`
	Version  string `json:"version"`
	Resource string `json:"resource"`
}

// APIVersion is the apiVersion of the resource's objects.
func (r Resource) APIVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

// String is the string at path in obj; "" when absent.
func String(obj map[string]any, path ...string) string {
	s, _ := Value(obj, path...).(string)
	return s
}

// Value is what is at path in obj; nil when absent.
func Value(obj map[string]any, path ...string) any {
	var v any = obj
	for _, k := range path {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}
