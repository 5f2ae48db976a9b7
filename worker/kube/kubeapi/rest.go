// Package kubeapi is the little of the Kubernetes API that bh's runner: k8s
// uses: create, get and delete an object, over HTTP, as the pod's service
// account or the kubeconfig's current context.
package kubeapi

// A small REST client instead of k8s.io/client-go and apimachinery: linking
// them made every bh command pay their package init for a feature few
// users enable (measured, 100 pairs, medians: bh version 11 → 13 ms, bh
// show 15 → 18 ms, peak memory +3.5 MiB, binary 29.8 → 36.8 MB), and the
// runner needs only create, get and delete of three resources (a
// SandboxClaim; a SandboxClaim, Sandbox or Pod; a SandboxClaim), polled.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
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
func (r Resource) APIVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

// REST is API over the cluster's HTTP API.
type REST struct {
	Host      string       // https://host:port
	HTTP      *http.Client // with the cluster's CA and any client certificate
	Token     string       // a bearer token, or
	TokenFile string       // a file holding it, read at each request: bound tokens rotate
}

func (c *REST) Create(ctx context.Context, r Resource, ns string, obj map[string]any) error {
	body, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return c.do(ctx, http.MethodPost, c.path(r, ns, ""), body, nil)
}

func (c *REST) Get(ctx context.Context, r Resource, ns, name string) (map[string]any, error) {
	var obj map[string]any
	err := c.do(ctx, http.MethodGet, c.path(r, ns, name), nil, &obj)
	return obj, err
}

func (c *REST) Delete(ctx context.Context, r Resource, ns, name string) error {
	return c.do(ctx, http.MethodDelete, c.path(r, ns, name), nil, nil)
}

// path is the URL of resource r's objects in namespace ns, or of object name.
func (c *REST) path(r Resource, ns, name string) string {
	p := strings.TrimSuffix(c.Host, "/") + "/apis/" + r.APIVersion()
	if r.Group == "" {
		p = strings.TrimSuffix(c.Host, "/") + "/api/" + r.Version
	}
	p += "/namespaces/" + ns + "/" + r.Resource
	if name != "" {
		p += "/" + name
	}
	return p
}

// do sends one request and decodes the answer into out (nil: ignored);
// a refusal is an error with the server's Status message.
func (c *REST) do(ctx context.Context, method, url string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/json")
	token := c.Token
	if c.TokenFile != "" {
		b, err := os.ReadFile(c.TokenFile)
		if err != nil {
			return fmt.Errorf("kubernetes: %w", err)
		}
		token = strings.TrimSpace(string(b))
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("kubernetes: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("kubernetes: %s %s: %w", method, url, err)
	}
	if resp.StatusCode/100 != 2 {
		return statusError(method, url, resp.StatusCode, data)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(data, out)
}

// statusError is a refused request's error, with the message of the
// Status the server sent; ErrNotFound for a 404.
func statusError(method, url string, code int, data []byte) error {
	var st struct{ Message string }
	msg := strings.TrimSpace(string(data))
	if json.Unmarshal(data, &st) == nil && st.Message != "" {
		msg = st.Message
	}
	err := fmt.Errorf("kubernetes: %s %s: %d %s: %s", method, url, code, http.StatusText(code), msg)
	if code == http.StatusNotFound {
		return fmt.Errorf("%w (%w)", ErrNotFound, err)
	}
	return err
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
