package kube

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/storegit"
)

// The pod's side: bh run-task, the entrypoint of a warm pool's pods.

// PodInfo is the folder the pod's downward API fills (its annotations
// file); BH_PODINFO names another.
func PodInfo() string { return cmp.Or(os.Getenv("BH_PODINFO"), "/etc/bh/podinfo") }

// Handed is what a pod is given: its task, and the token it takes the
// task's claim by.
type Handed struct{ Task, Token string }

// WaitHanded waits, until ctx ends, for the annotations file in dir to
// name the pod's task: a warm pod starts long before a claim binds it.
func WaitHanded(ctx context.Context, dir string) (Handed, error) {
	a, err := waitAnnotations(ctx, dir, AnnotationTask, AnnotationClaim)
	return Handed{Task: a[AnnotationTask], Token: a[AnnotationClaim]}, err
}

// waitAnnotations waits, until ctx ends, for the annotations file in dir
// to hold every key, and returns them all.
func waitAnnotations(ctx context.Context, dir string, keys ...string) (map[string]string, error) {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		b, _ := os.ReadFile(filepath.Join(dir, "annotations")) // not there yet: wait for it
		a := annotations(b)
		if !slices.ContainsFunc(keys, func(k string) bool { return a[k] == "" }) {
			return a, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no task was given to this pod (%s in %s/annotations)", strings.Join(keys, " and "), dir)
		case <-tick.C:
		}
	}
}

// annotations reads the downward API's lines: key="value", Go-quoted.
func annotations(b []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if uq, err := strconv.Unquote(v); ok && err == nil {
			out[k] = uq
		}
	}
	return out
}

// Checkout is the store of a clone of remote in dir, which shares its
// tasks through origin: cloned, or, when dir holds one, brought up to date.
func Checkout(remote, dir string) (*store.Store, error) {
	_, err := os.Stat(filepath.Join(dir, ".git"))
	fresh := errors.Is(err, os.ErrNotExist)
	if fresh {
		if err := git.Clone(remote, dir); err != nil {
			return nil, fmt.Errorf("clone %s: %w", remote, err)
		}
	}
	s, err := store.Find(dir)
	if err != nil {
		return nil, err
	}
	s.Config.Remote = "origin"
	if !fresh {
		_, err = storegit.Sync(s, "", false)
	}
	return s, err
}
