package kube_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
	"github.com/bh-tracker/bh/worker/kube"
	"github.com/bh-tracker/bh/worker/kube/result"
)

// TestPodResultRoundTrip is a run's way through a task pod with bh's
// own code at each end: the worker pushed the input; the agent's
// container checks it out, works, and leaves its result (no credential:
// it never pushes); the helper container, given the task by the pod's
// annotations, pushes the result's one ref; the worker accepts it, with
// the work, the outcome and the session. The target branch and bh's
// store on the remote are as they were.
func TestPodResultRoundTrip(t *testing.T) {
	const id = "tm-9"
	root := t.TempDir()
	remote, podDir, out, info := filepath.Join(root, "remote.git"), filepath.Join(root, "pod"), filepath.Join(root, "out"), filepath.Join(root, "podinfo")
	worker := gittest.Init(t, map[string]string{".bh/tasks/tm-9.yaml": "id: tm-9\n", "a.txt": "a\n"})
	gittest.Git(t, root, "init", "-q", "--bare", remote)
	gittest.Git(t, worker, "push", "-q", remote, "HEAD:refs/heads/main")
	input := gittest.Rev(t, worker, "HEAD")
	gittest.Git(t, worker, "push", "-q", remote, "HEAD:"+git.RunRef(id))
	before := gittest.Git(t, remote, "for-each-ref")
	for _, d := range []string{out, info} {
		os.MkdirAll(d, 0o755)
	}

	if err := git.CheckoutRun(podDir, remote, git.RunRef(id), gittest.Rev(t, worker, "HEAD^{tree}")); err == nil {
		t.Fatal("the pod checked out a run it was not given")
	}
	os.RemoveAll(podDir)
	if err := git.CheckoutRun(podDir, remote, git.RunRef(id), input); err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, podDir, "a.txt", "b\n")
	if _, err := kube.LeaveResult(podDir, input, id, out, map[string][]byte{
		result.OutcomeFile: []byte(`done: {"status":"completed","summary":"b it is"}`), result.SessionFile: []byte("{}\n")}, config.DefaultMaxResult); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(info, "annotations"), []byte(kube.AnnotationTask+`="`+id+`"`+"\n"), 0o644)
	oid, err := kube.PushResult(context.Background(), info, out, filepath.Join(root, "scratch"), remote, config.DefaultMaxResult)
	if err != nil {
		t.Fatal(err)
	}
	after := gittest.Git(t, remote, "for-each-ref")
	line := oid + " commit\t" + git.ResultRef(id) + "\n"
	if !strings.Contains(after, line) || strings.Replace(after, line, "", 1) != before {
		t.Fatalf("the remote's refs:\n%s\nwant one more than before, the result:\n%s", after, before)
	}

	r, err := git.Open(worker)
	if err != nil {
		t.Fatal(err)
	}
	res, err := result.Accept(r, remote, id, input, config.DefaultMaxResult)
	if err != nil {
		t.Fatal(err)
	}
	session, _ := r.FileAt(res.Commit, result.SessionFile)
	if res.Commit != oid || strings.Join(res.Paths, " ") != "a.txt" || res.Outcome.Summary != "b it is" || string(session) != "{}\n" {
		t.Fatalf("accepted %+v (session %q)", res, session)
	}
}

// TestPushResultTakesNoLink: the helper never follows the agent's link
// out of the shared folder (to the credential it holds, say).
func TestPushResultTakesNoLink(t *testing.T) {
	root := t.TempDir()
	out, info := filepath.Join(root, "out"), filepath.Join(root, "podinfo")
	for _, d := range []string{out, info} {
		os.MkdirAll(d, 0o755)
	}
	secret := filepath.Join(root, "credentials")
	os.WriteFile(secret, []byte("https://bot:s3cret@git.example.com\n"), 0o600)
	os.Symlink(secret, filepath.Join(out, kube.ResultBundle))
	os.WriteFile(filepath.Join(out, kube.ResultDone), nil, 0o644)
	os.WriteFile(filepath.Join(info, "annotations"), []byte(kube.AnnotationTask+`="tm-1"`+"\n"), 0o644)
	_, err := kube.PushResult(context.Background(), info, out, filepath.Join(root, "scratch"), filepath.Join(root, "none.git"), config.DefaultMaxResult)
	if err == nil || !strings.Contains(err.Error(), "symbolic link") && !strings.Contains(err.Error(), "too many levels") {
		t.Fatalf("pushed through a link: %v", err)
	}
}

// TestPushResultBounded: the helper pushes no bundle over its limit, and
// says which limit; the remote gets nothing.
func TestPushResultBounded(t *testing.T) {
	root := t.TempDir()
	out, info, remote := filepath.Join(root, "out"), filepath.Join(root, "podinfo"), filepath.Join(root, "remote.git")
	for _, d := range []string{out, info} {
		os.MkdirAll(d, 0o755)
	}
	gittest.Git(t, root, "init", "-q", "--bare", remote)
	os.WriteFile(filepath.Join(out, kube.ResultBundle), make([]byte, 4096), 0o644)
	os.WriteFile(filepath.Join(out, kube.ResultDone), nil, 0o644)
	os.WriteFile(filepath.Join(info, "annotations"), []byte(kube.AnnotationTask+`="tm-1"`+"\n"), 0o644)
	_, err := kube.PushResult(context.Background(), info, out, filepath.Join(root, "scratch"), remote, 1024)
	if _, ok := errors.AsType[*kube.TooBig](err); !ok || !strings.Contains(err.Error(), "more than its limit 1.0 KiB (k8s.maxResult)") {
		t.Fatalf("pushed a bundle over its limit: %v", err)
	}
	if refs := gittest.Git(t, remote, "for-each-ref"); refs != "" {
		t.Fatalf("the remote got %s", refs)
	}
}
