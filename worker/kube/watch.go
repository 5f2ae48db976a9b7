package kube

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/kube/kubeapi"
)

// watch follows one task's pod: first until the pod takes the task's git
// claim from the token (or is given up on, and the claim taken back),
// then until the pod releases it or fails.
type watch struct {
	r     *Runner
	c     *claims.Remote
	id    string
	name  string // the SandboxClaim's
	token string
	lease task.Lease          // the hand-over claim's
	taker *claims.RemoteClaim // who took the claim from the token; nil: none yet
	taken bool
	pod   pod
}

func (w *watch) run(ctx context.Context) error {
	bind := time.NewTimer(w.r.K8s.BindTimeoutOr())
	defer bind.Stop()
	tick := time.NewTicker(w.r.poll())
	defer tick.Stop()
	late := false
	for {
		select {
		case <-ctx.Done(): // the worker stops: a pod that took its task runs on, and the claim's TTL ends it
			if !w.taken && w.takeBack() {
				w.remove()
			}
			return ctx.Err()
		case <-bind.C:
			late = true
		case <-tick.C:
		}
		if done, err := w.step(ctx, late); done {
			return err
		}
	}
}

// step looks at the claim and the pod once; done: the task has left the pod.
func (w *watch) step(ctx context.Context, late bool) (bool, error) {
	w.pod = w.r.look(ctx, w.name, w.pod)
	if err := w.c.Fetch(); err != nil {
		w.r.warnf("%s: look at its claim: %v (looked at again)", w.id, err)
		return false, nil
	}
	oid, cl, err := w.c.Current(w.id)
	if err != nil {
		return false, nil
	}
	if !w.taken && oid != w.token {
		w.taken, w.taker = true, cl
	}
	switch {
	case w.taken && w.ended(cl):
		w.remove()
		if err := w.r.Sync(); err != nil { // the pod's work, here: best effort, the next sync brings it
			w.r.warnf("%s: sync: %v", w.id, err)
		}
		return true, nil
	case !w.taken && (late || w.pod.trouble != ""):
		return w.giveUp(late)
	case w.taken && w.pod.trouble != "":
		w.remove()
		return true, fmt.Errorf("%s: its pod %s (it holds the task until its lease runs out)", w.id, w.pod.trouble)
	}
	return false, nil
}

// ended reports whether the pod that took the claim has let it go: to
// nobody (the task's file and work are pushed), or, its lease run out,
// to another.
func (w *watch) ended(cl *claims.RemoteClaim) bool {
	if cl == nil || cl.State != claims.Held {
		return true
	}
	return w.taker == nil || cl.Host != w.taker.Host || cl.PID != w.taker.PID
}

// giveUp takes the task back from a pod that has not taken it: not bound,
// not started or failed in time. An empty pool or an image that cannot
// be pulled is an outage (claims pause); other trouble a retry.
func (w *watch) giveUp(late bool) (bool, error) {
	if !w.takeBack() {
		return false, nil // the pod took it meanwhile (the next look sees by whom), or the remote did not answer
	}
	w.remove()
	why := w.pod.trouble
	if why == "" {
		why = fmt.Sprintf("did not take its task within %s", w.r.K8s.BindTimeoutOr())
	}
	err := fmt.Errorf("%s: its pod %s", w.id, why)
	if !w.pod.bound || w.pod.pull {
		return true, &agent.RunError{Reason: err.Error(), Outage: agent.OutageOverloaded, Err: err}
	}
	return true, err
}

// takeBack takes the task's claim back from the token: false when the
// pod took it first (or the remote cannot say).
func (w *watch) takeBack() bool {
	err := w.c.TakeBack(w.id, w.lease)
	if err != nil && !errors.Is(err, claims.ErrClaimed) {
		w.r.warnf("%s: take the claim back: %v (it runs out on its own)", w.id, err)
	}
	return err == nil
}

// remove deletes the SandboxClaim, and with it the pod.
func (w *watch) remove() {
	err := w.r.Client.Delete(context.Background(), SandboxClaims, w.r.K8s.NamespaceOr(), w.name)
	if err != nil && !errors.Is(err, kubeapi.ErrNotFound) {
		w.r.warnf("%s: delete its SandboxClaim %s: %v (its TTL ends it)", w.id, w.name, err)
	}
}

func (r *Runner) poll() time.Duration {
	if r.Poll > 0 {
		return r.Poll
	}
	return 2 * time.Second
}
