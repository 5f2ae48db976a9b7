package kube

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The pod's side: bh run-task, the entrypoint of a warm pool's pods.

// PodInfo is the folder the pod's downward API fills (its annotations
// file); BH_PODINFO names another.
func PodInfo() string { return cmp.Or(os.Getenv("BH_PODINFO"), "/etc/bh/podinfo") }

// Handed is what a pod is given: its task, and its run's input commit.
type Handed struct{ Task, Run string }

// WaitHanded waits, until ctx ends, for the annotations file in dir to
// name the pod's task: a warm pod starts long before a claim binds it.
func WaitHanded(ctx context.Context, dir string) (Handed, error) {
	a, err := waitAnnotations(ctx, dir, AnnotationTask, AnnotationRun)
	return Handed{Task: a[AnnotationTask], Run: a[AnnotationRun]}, err
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
