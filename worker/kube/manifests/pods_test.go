package manifests

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkerScriptClonesThenSyncs runs the worker pod's command with a
// stand-in bh: the first start clones the remote under the name the
// config gives it, the next finds the clone, and both sync and then run
// bh worker in it, with git's credential and identity from the pod's
// environment.
func TestWorkerScriptClonesThenSyncs(t *testing.T) {
	root := t.TempDir()
	remote, seed, vol, bin := filepath.Join(root, "remote.git"), filepath.Join(root, "seed"), filepath.Join(root, "vol"), filepath.Join(root, "bin")
	for _, d := range []string{vol, bin} {
		os.MkdirAll(d, 0o755)
	}
	gitIn(t, root, "init", "-q", "--bare", "-b", "main", remote)
	gitIn(t, root, "clone", "-q", remote, seed)
	commit := func(msg string) {
		gitIn(t, seed, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", msg)
		gitIn(t, seed, "push", "-q", "origin", "HEAD:main")
	}
	commit("first")
	// The stand-in bh says where it runs and what git sees there; its
	// sync fetches.
	os.WriteFile(filepath.Join(bin, "bh"), []byte("#!/bin/sh\necho \"$* in $(pwd)\"\n"+
		"if [ $1 = sync ]; then git fetch -q upstream; exit; fi\n"+
		"git log --format=%s upstream/main\ngit config user.name\n"+
		"printf 'protocol=https\\nhost=git.example.com\\n\\n' | git credential fill\n"), 0o755)
	creds := filepath.Join(root, "credentials")
	os.WriteFile(creds, []byte("https://bot:s3cret@git.example.com\n"), 0o600)

	o := Options{Image: "bh", Remote: remote, RemoteName: "upstream", Namespace: "bh", Mode: Workers, Replicas: 1}
	c := workerSet(o).Template.Spec.Containers[0]
	script := fmt.Sprintf(workerScript, vol, "upstream")
	env := []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0"}
	for _, e := range c.Env {
		if e.ValueFrom == nil && e.Name != "HOME" {
			env = append(env, e.Name+"="+strings.ReplaceAll(e.Value, gitDir+"/credentials", creds))
		}
	}
	start := func() string {
		cmd := exec.Command("sh", "-c", script)
		cmd.Env, cmd.Dir = append(env, "HOME="+root), root
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("the worker's command: %v\n%s%s", err, out, stderr.String())
		}
		return string(out)
	}
	out := start()
	want := "sync in " + filepath.Join(vol, "repo") + "\nworker in " + filepath.Join(vol, "repo") + "\nfirst\nbh\nprotocol=https\nhost=git.example.com\nusername=bot\npassword=s3cret\n"
	if out != want {
		t.Fatalf("first start:\n%s\nwant:\n%s", out, want)
	}
	commit("second")
	if out := start(); !strings.Contains(out, "worker in "+filepath.Join(vol, "repo")+"\nsecond\nfirst\n") {
		t.Fatalf("the next start did not sync:\n%s", out)
	}
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestResultContainerBounded: the helper pushes no result over
// k8s.maxResult, when the config says one; else over its own default.
func TestResultContainerBounded(t *testing.T) {
	o := Options{Image: "bh", Remote: "https://git.example.com/a.git", Namespace: "bh", Mode: Pods}
	if args := strings.Join(resultContainer(o).Args, " "); strings.Contains(args, "--max-result") {
		t.Fatalf("args %s: want the helper's default", args)
	}
	o.MaxResult = "1GiB"
	if args := strings.Join(resultContainer(o).Args, " "); !strings.HasSuffix(args, "--max-result 1GiB") {
		t.Fatalf("args %s: want --max-result 1GiB", args)
	}
}
