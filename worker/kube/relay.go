package kube

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/kube/result"
)

// The task pod's result, written by its agent's container into the
// folder it shares with the helper container (bh run-task
// --push-result): the bundle of the one ref the pod may push, then the
// mark that it is whole.
const (
	ResultBundle = "result.bundle"
	ResultDone   = "done"
)

// TooBig is a result bundle over its limit (k8s.maxResult).
type TooBig struct{ Size, Max int64 }

func (e *TooBig) Error() string {
	return fmt.Sprintf("the result is %s, more than its limit %s (k8s.maxResult)", result.Bytes(e.Size), result.Bytes(e.Max))
}

// LeaveResult is the agent's container's end of a run: its work in dir
// (a git.CheckoutRun of input) with files (the outcome, the session), as
// one commit bundled into out for the helper container, then marked
// whole. It returns the commit; a bundle over max is a TooBig, left not.
func LeaveResult(dir, input, id, out string, files map[string][]byte, max int64) (string, error) {
	tmp := filepath.Join(out, ResultBundle+".new")
	commit, err := git.BundleResult(dir, input, git.ResultRef(id), tmp, files)
	if err == nil {
		err = bounded(tmp, max)
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(out, ResultBundle))
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(out, ResultDone), nil, 0o644)
	}
	if err != nil {
		return "", fmt.Errorf("%s: leave the result: %w", id, err)
	}
	return commit, nil
}

// PushResult is the helper container's whole work: once the pod has a
// task (its annotations, which the agent's container cannot change) and
// the agent's container has marked its result whole in out, it copies
// the bundle out of that shared folder into scratch, its own, and
// pushes the bundle's one ref, git.ResultRef(task), to remote with the
// credential only this container holds. A bundle that names any other
// ref is refused, and so is one over max bytes (a TooBig): the agent can
// fill that ref with anything, and only that ref; the worker checks what
// it holds (package result).
func PushResult(ctx context.Context, podinfo, out, scratch, remote string, max int64) (string, error) {
	a, err := waitAnnotations(ctx, podinfo, AnnotationTask)
	if err != nil {
		return "", err
	}
	id := a[AnnotationTask]
	if err := waitFile(ctx, filepath.Join(out, ResultDone)); err != nil {
		return "", fmt.Errorf("%s: no result came: %w", id, err)
	}
	if err := os.MkdirAll(scratch, 0o700); err != nil {
		return "", err
	}
	own, err := os.MkdirTemp(scratch, "relay-") // its own each time: a restarted container starts afresh
	if err != nil {
		return "", err
	}
	bundle := filepath.Join(own, ResultBundle)
	if err := copyRegular(filepath.Join(out, ResultBundle), bundle, max); err != nil {
		return "", fmt.Errorf("%s: the result: %w", id, err)
	}
	relay := filepath.Join(own, "relay.git")
	return git.RelayBundle(relay, bundle, remote, git.ResultRef(id), git.RunRef(id))
}

// waitFile waits, until ctx ends, for path to exist.
func waitFile(ctx context.Context, path string) error {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		if _, err := os.Lstat(path); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// bounded refuses file path over max bytes.
func bounded(path string, max int64) error {
	fi, err := os.Stat(path)
	if err == nil && fi.Size() > max {
		err = &TooBig{Size: fi.Size(), Max: max}
	}
	return err
}

// copyRegular copies the regular file src (the agent's: never followed
// as a link, never a fifo that blocks) to dst, a new file, refusing it
// over max bytes (a TooBig) however it grows while it is read.
func copyRegular(src, dst string, max int64) error {
	in, err := os.OpenFile(src, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", src)
	}
	if fi.Size() > max {
		return &TooBig{Size: fi.Size(), Max: max}
	}
	outf, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(outf, io.LimitReader(in, max+1))
	if err == nil && n > max {
		err = &TooBig{Size: n, Max: max}
	}
	return errors.Join(err, outf.Close())
}
