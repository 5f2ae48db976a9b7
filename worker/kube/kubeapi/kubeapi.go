// Package kubeapi is the little of the Kubernetes API that bh's runner: k8s
// uses: create, get and delete an object, through client-go's dynamic
// client, as kubectl would reach the cluster (config.go).
package kubeapi

// client-go's dynamic client rather than a REST client of bh's own on
// client-go's transport: clientcmd, which the kubeconfig needs, links most
// of what it needs, and the dynamic client adds little to that (measured,
// medians, bh --version: binary 29.9 MB without client-go → 36.3 MB with
// clientcmd → 36.9 MB with the dynamic client too; 2 more packages, one
// more package init of 29 KiB; wall 15.1 → 17.0 → 17.3 ms, 400 runs).

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
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
type Resource struct{ Group, Version, Resource string }

// APIVersion is the apiVersion of the resource's objects.
func (r Resource) APIVersion() string { return r.GVR().GroupVersion().String() }

// GVR is client-go's name of r.
func (r Resource) GVR() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Resource}
}

// Dynamic is API over client-go's dynamic client (a real cluster's, or
// its fake in tests).
func Dynamic(d dynamic.Interface) API { return dynAPI{d} }

type dynAPI struct{ d dynamic.Interface }

func (a dynAPI) Create(ctx context.Context, r Resource, ns string, obj map[string]any) error {
	_, err := a.d.Resource(r.GVR()).Namespace(ns).Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
	return wrap(err)
}

func (a dynAPI) Get(ctx context.Context, r Resource, ns, name string) (map[string]any, error) {
	u, err := a.d.Resource(r.GVR()).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, wrap(err)
	}
	return u.Object, nil
}

func (a dynAPI) Delete(ctx context.Context, r Resource, ns, name string) error {
	return wrap(a.d.Resource(r.GVR()).Namespace(ns).Delete(ctx, name, metav1.DeleteOptions{}))
}

// wrap is err with ErrNotFound for a 404.
func wrap(err error) error {
	switch {
	case err == nil:
		return nil
	case apierrors.IsNotFound(err):
		return fmt.Errorf("%w (kubernetes: %w)", ErrNotFound, err)
	}
	return fmt.Errorf("kubernetes: %w", err)
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
