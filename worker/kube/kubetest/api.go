package kubetest

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/bh-tracker/bh/worker/kube/kubeapi"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// API is the runner's kubeapi.API over a client-go dynamic client: tests
// give the runner client-go's fake.
func API(d dynamic.Interface) kubeapi.API { return dynAPI{d} }

// GVR is client-go's name of r.
func GVR(r kubeapi.Resource) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Resource}
}

type dynAPI struct{ d dynamic.Interface }

func (a dynAPI) Create(ctx context.Context, r kubeapi.Resource, ns string, obj map[string]any) error {
	_, err := a.d.Resource(GVR(r)).Namespace(ns).Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
	return notFound(err)
}

func (a dynAPI) Get(ctx context.Context, r kubeapi.Resource, ns, name string) (map[string]any, error) {
	u, err := a.d.Resource(GVR(r)).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, notFound(err)
	}
	return u.Object, nil
}

func (a dynAPI) Delete(ctx context.Context, r kubeapi.Resource, ns, name string) error {
	return notFound(a.d.Resource(GVR(r)).Namespace(ns).Delete(ctx, name, metav1.DeleteOptions{}))
}

func notFound(err error) error {
	if apierrors.IsNotFound(err) {
		return fmt.Errorf("%w (%w)", kubeapi.ErrNotFound, err)
	}
	return err
}

// REST is bh's own client of the test's cluster, as the runner uses it.
func (c *Cluster) REST(t testing.TB) *kubeapi.REST {
	t.Helper()
	tc, err := rest.TLSConfigFor(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	return &kubeapi.REST{Host: c.Config.Host, Token: c.Config.BearerToken, HTTP: &http.Client{Transport: &http.Transport{TLSClientConfig: tc}}}
}
