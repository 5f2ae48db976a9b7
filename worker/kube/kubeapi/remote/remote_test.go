package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/bh-tracker/bh/worker/kube/kubeapi"
)

// objects is a cluster of objects by resource, namespace and name; get
// blocks on hold, when set, until it closes.
type objects struct {
	mu   sync.Mutex
	m    map[string]map[string]any
	hold chan struct{}
}

func key(r kubeapi.Resource, ns, name string) string { return fmt.Sprint(r, ns, name) }

func (o *objects) Create(_ context.Context, r kubeapi.Resource, ns string, obj map[string]any) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.m[key(r, ns, kubeapi.String(obj, "metadata", "name"))] = obj
	return nil
}

func (o *objects) Get(_ context.Context, r kubeapi.Resource, ns, name string) (map[string]any, error) {
	if name == "held" {
		<-o.hold
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if obj, ok := o.m[key(r, ns, name)]; ok {
		return obj, nil
	}
	return nil, fmt.Errorf("%w: %s", kubeapi.ErrNotFound, name)
}

func (o *objects) Delete(_ context.Context, r kubeapi.Resource, ns, name string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.m[key(r, ns, name)]; !ok {
		return errors.New("forbidden: not yours")
	}
	delete(o.m, key(r, ns, name))
	return nil
}

// served is a client of kubeapi.Serve over pipes, as bh-kube serves it;
// stop ends the serving side.
func served(t *testing.T, api kubeapi.API) (c *client, stop func()) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		outW.Write([]byte(`{"id":0,"ns":"team"}` + "\n"))
		kubeapi.Serve(context.Background(), api, inR, outW)
		outW.Close()
	}()
	c = newClient(inW)
	ns, err := c.start(outR)
	if err != nil || ns != "team" {
		t.Fatalf("start: %q, %v", ns, err)
	}
	return c, func() { inR.Close(); outW.Close() }
}

// TestRemoteAPI: bh's calls cross to bh-kube and back as they were made:
// objects whole, a 404 as kubeapi.ErrNotFound, other errors as their
// text; a call whose context ends returns while another waits; and once
// bh-kube is gone every call fails, none hangs.
func TestRemoteAPI(t *testing.T) {
	o := &objects{m: map[string]map[string]any{}, hold: make(chan struct{})}
	c, stop := served(t, o)
	ctx := t.Context()
	pods := kubeapi.Resource{Version: "v1", Resource: "pods"}
	pod := map[string]any{"metadata": map[string]any{"name": "p"}, "spec": map[string]any{"image": "bh:test"}}
	if err := c.Create(ctx, pods, "team", pod); err != nil {
		t.Fatal(err)
	}
	got, err := c.Get(ctx, pods, "team", "p")
	if err != nil || kubeapi.String(got, "spec", "image") != "bh:test" {
		t.Fatalf("get: %v, %v", got, err)
	}
	if _, err := c.Get(ctx, pods, "team", "q"); !errors.Is(err, kubeapi.ErrNotFound) {
		t.Fatalf("get of a missing pod: %v, want ErrNotFound", err)
	}
	if err := c.Delete(ctx, pods, "team", "q"); err == nil || errors.Is(err, kubeapi.ErrNotFound) || err.Error() != "forbidden: not yours" {
		t.Fatalf("delete refused: %v", err)
	}
	short, cancel := context.WithCancel(ctx)
	held := make(chan error, 1)
	go func() { _, err := c.Get(short, pods, "team", "held"); held <- err }()
	if err := c.Delete(ctx, pods, "team", "p"); err != nil { // not held up by the held get
		t.Fatal(err)
	}
	cancel()
	if err := <-held; !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled call: %v", err)
	}
	close(o.hold)
	stop()
	<-c.ended
	if _, err := c.Get(ctx, pods, "team", "p"); err == nil {
		t.Fatal("a call after bh-kube ended succeeded")
	}
}

// TestMissingBhKube: without bh-kube beside bh or on PATH, the runner
// cannot start, and says how to build it.
func TestMissingBhKube(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, _, err := Connect(t.Context())
	var missing MissingError
	if !errors.As(err, &missing) || missing.Hint() == "" {
		t.Fatalf("Connect without bh-kube: %v", err)
	}
}
