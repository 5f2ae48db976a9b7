// Package clientgo is kubeapi.API through client-go: the kubeconfig loaded
// as kubectl loads it (clientcmd), objects through client-go's dynamic
// client. Only bh-kube and tests link it (kubeapi's doc says why).
package clientgo

// client-go's dynamic client rather than a REST client of bh's own on
// client-go's transport: clientcmd, which the kubeconfig needs, links most
// of what it needs, and the dynamic client adds little to that (measured,
// medians, bh --version: binary 29.9 MB without client-go → 36.3 MB with
// clientcmd → 36.9 MB with the dynamic client too; 2 more packages, one
// more package init of 29 KiB; wall 15.1 → 17.0 → 17.3 ms, 400 runs).

import (
	"context"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/worker/kube/kubeapi"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
)

// Client is the cluster's API reached as kubectl reaches it (client-go's
// clientcmd): every KUBECONFIG file merged (default ~/.kube/config), its
// current context, whose user may log in through an exec plugin, its
// cluster's proxy-url and tls-server-name; in a pod without a kubeconfig,
// the pod's service account. ns is the namespace the context names (in a
// pod: the pod's own); "" when it names none.
func Client() (c kubeapi.API, ns string, err error) {
	return load(clientcmd.NewDefaultClientConfigLoadingRules())
}

func load(rules *clientcmd.ClientConfigLoadingRules) (kubeapi.API, string, error) {
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{})
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, "", fmt.Errorf("kubernetes: %w", err)
	}
	ns, err := namespace(cc)
	if err != nil {
		return nil, "", fmt.Errorf("kubernetes: %w", err)
	}
	// A bound on each request: a hung connection must not stall the runner's polling.
	cfg.Timeout = time.Minute
	d, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("kubernetes: %w", err)
	}
	return Dynamic(d), ns, nil
}

// namespace is the current context's own namespace; without a context
// (in a pod), the pod's.
func namespace(cc clientcmd.ClientConfig) (string, error) {
	raw, err := cc.RawConfig()
	if err != nil {
		return "", err
	}
	if c := raw.Contexts[raw.CurrentContext]; c != nil {
		return c.Namespace, nil
	}
	ns, _, err := cc.Namespace()
	return ns, err
}

// GVR is client-go's name of r.
func GVR(r kubeapi.Resource) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Resource}
}

// Dynamic is kubeapi.API over client-go's dynamic client (a real
// cluster's, or its fake in tests).
func Dynamic(d dynamic.Interface) kubeapi.API { return dynAPI{d} }

type dynAPI struct{ d dynamic.Interface }

func (a dynAPI) Create(ctx context.Context, r kubeapi.Resource, ns string, obj map[string]any) error {
	_, err := a.d.Resource(GVR(r)).Namespace(ns).Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
	return wrap(err)
}

func (a dynAPI) Get(ctx context.Context, r kubeapi.Resource, ns, name string) (map[string]any, error) {
	u, err := a.d.Resource(GVR(r)).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, wrap(err)
	}
	return u.Object, nil
}

func (a dynAPI) Delete(ctx context.Context, r kubeapi.Resource, ns, name string) error {
	return wrap(a.d.Resource(GVR(r)).Namespace(ns).Delete(ctx, name, metav1.DeleteOptions{}))
}

// wrap is err with kubeapi.ErrNotFound for a 404.
func wrap(err error) error {
	switch {
	case err == nil:
		return nil
	case apierrors.IsNotFound(err):
		return fmt.Errorf("%w (kubernetes: %w)", kubeapi.ErrNotFound, err)
	}
	return fmt.Errorf("kubernetes: %w", err)
}
