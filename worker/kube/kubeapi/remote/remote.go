// Package remote is kubeapi.API served by bh-kube, a child process bh
// starts (kubeapi's doc says why the client lives apart).
package remote

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/worker/kube/kubeapi"
)

// Binary is the client's command name.
const Binary = "bh-kube"

// MissingError is a bh-kube found neither beside bh nor on PATH.
type MissingError struct{}

func (MissingError) Error() string {
	return "runner: k8s needs " + Binary + ", bh's Kubernetes client, beside bh or on PATH"
}

func (MissingError) Hint() string {
	return "build it beside bh, from bh's repository: go build -o \"$(dirname \"$(command -v bh)\")\" ./worker/kube/kubeapi/bh-kube"
}

// Find is bh-kube's path: beside bh's own executable, else on PATH.
func Find() (string, error) {
	if p, ok := proc.Beside(Binary); ok {
		return p, nil
	}
	return "", MissingError{}
}

// Connect starts bh-kube (Find), which loads the kubeconfig as kubectl
// does, and returns the API it serves and the namespace its context
// names. bh-kube lives until ctx ends.
func Connect(ctx context.Context) (kubeapi.API, string, error) {
	bin, err := Find()
	if err != nil {
		return nil, "", err
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stderr := proc.NewCapWriter(4<<10, 4<<10)
	c := newClient(inW)
	go func() {
		_, err := proc.Run(ctx, proc.Cmd{Argv: []string{bin}, Stdin: inR, Stdout: outW, Stderr: stderr})
		c.end(fmt.Errorf("%s ended: %v %s", Binary, err, strings.TrimSpace(string(stderr.Bytes()))))
		outW.Close()
		inR.Close()
	}()
	ns, err := c.start(outR)
	if err != nil {
		return nil, "", err
	}
	return c, ns, nil
}

func newClient(in io.WriteCloser) *client {
	return &client{in: in, pending: map[uint64]chan kubeapi.Response{}, ended: make(chan struct{})}
}

// start reads bh-kube's first line, then its answers, from out, and
// returns the context's namespace.
func (c *client) start(out io.Reader) (string, error) {
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, kubeapi.MaxLine)
	var hello kubeapi.Response
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &hello) != nil {
		c.in.Close()
		<-c.ended
		return "", c.err
	}
	if hello.Err != "" {
		c.in.Close()
		return "", errors.New(hello.Err)
	}
	go c.read(sc)
	return hello.NS, nil
}

// client sends requests and matches the answers to them by ID.
type client struct {
	mu      sync.Mutex
	in      io.WriteCloser
	next    uint64
	pending map[uint64]chan kubeapi.Response
	err     error // why bh-kube ended
	ended   chan struct{}
}

func (c *client) read(sc *bufio.Scanner) {
	defer func() { c.end(fmt.Errorf("%s stopped answering: %v", Binary, sc.Err())) }()
	for sc.Scan() {
		var r kubeapi.Response
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue
		}
		c.mu.Lock()
		ch := c.pending[r.ID]
		delete(c.pending, r.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- r
		}
	}
}

// end fails every call waiting, and every call to come, with err.
func (c *client) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = err
	for id, ch := range c.pending {
		ch <- kubeapi.Response{ID: id, Err: err.Error()}
		delete(c.pending, id)
	}
	close(c.ended)
}

func (c *client) call(ctx context.Context, req kubeapi.Request) (kubeapi.Response, error) {
	ch := make(chan kubeapi.Response, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return kubeapi.Response{}, c.err
	}
	c.next++
	req.ID = c.next
	c.pending[req.ID] = ch
	line, err := json.Marshal(req)
	if err == nil {
		_, err = c.in.Write(append(line, '\n'))
	}
	if err != nil {
		delete(c.pending, req.ID)
	}
	c.mu.Unlock()
	if err != nil {
		return kubeapi.Response{}, fmt.Errorf("ask %s: %w", Binary, err)
	}
	select {
	case r := <-ch:
		return r, r.AsError()
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, req.ID)
		c.mu.Unlock()
		return kubeapi.Response{}, ctx.Err()
	}
}

func (c *client) Create(ctx context.Context, r kubeapi.Resource, ns string, obj map[string]any) error {
	_, err := c.call(ctx, kubeapi.Request{Op: "create", R: r, NS: ns, Obj: obj})
	return err
}

func (c *client) Get(ctx context.Context, r kubeapi.Resource, ns, name string) (map[string]any, error) {
	res, err := c.call(ctx, kubeapi.Request{Op: "get", R: r, NS: ns, Name: name})
	return res.Obj, err
}

func (c *client) Delete(ctx context.Context, r kubeapi.Resource, ns, name string) error {
	_, err := c.call(ctx, kubeapi.Request{Op: "delete", R: r, NS: ns, Name: name})
	return err
}
