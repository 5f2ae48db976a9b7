package kubeapi

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// bh and bh-kube speak JSON lines: bh-kube first says whether the
// kubeconfig loaded (a Response of ID 0, with the context's namespace),
// then answers each Request, in any order, by its ID.

// Request is one call of the API.
type Request struct {
	ID   uint64         `json:"id"`
	Op   string         `json:"op"` // create, get or delete
	R    Resource       `json:"r"`
	NS   string         `json:"ns"`
	Name string         `json:"name,omitempty"`
	Obj  map[string]any `json:"obj,omitempty"`
}

// Response answers the Request of its ID.
type Response struct {
	ID       uint64         `json:"id"`
	Obj      map[string]any `json:"obj,omitempty"`
	Err      string         `json:"err,omitempty"`
	NotFound bool           `json:"notFound,omitempty"`
	NS       string         `json:"ns,omitempty"` // in the first
}

// AsError is the response's error, ErrNotFound for a 404.
func (r Response) AsError() error {
	switch {
	case r.NotFound:
		return fmt.Errorf("%w (kubernetes: %s)", ErrNotFound, r.Err)
	case r.Err != "":
		return errors.New(r.Err)
	}
	return nil
}

// MaxLine bounds a line either side reads: an object bh asks for is a pod
// or a claim, a few KiB.
const MaxLine = 16 << 20

// Serve answers the requests read from in with api, each as it comes
// (a slow one holds up no other), until in ends.
func Serve(ctx context.Context, api API, in io.Reader, out io.Writer) error {
	var mu sync.Mutex
	enc := json.NewEncoder(out)
	send := func(r Response) {
		mu.Lock()
		defer mu.Unlock()
		enc.Encode(r) // a reader gone: it is ending
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, MaxLine)
	for sc.Scan() {
		var req Request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			return fmt.Errorf("a request bh-kube cannot read: %w", err)
		}
		wg.Go(func() { send(answer(ctx, api, req)) })
	}
	return sc.Err()
}

func answer(ctx context.Context, api API, req Request) Response {
	res := Response{ID: req.ID}
	var err error
	switch req.Op {
	case "create":
		err = api.Create(ctx, req.R, req.NS, req.Obj)
	case "get":
		res.Obj, err = api.Get(ctx, req.R, req.NS, req.Name)
	case "delete":
		err = api.Delete(ctx, req.R, req.NS, req.Name)
	default:
		err = fmt.Errorf("no such operation: %q", req.Op)
	}
	if err != nil {
		res.Err, res.NotFound = err.Error(), errors.Is(err, ErrNotFound)
	}
	return res
}
