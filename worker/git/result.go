package git

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A task pod's result (runner: k8s). The pod's agent holds no credential
// that can push: it writes its result as a bundle, a helper container
// beside it that holds one pushes that bundle's one ref
// (RelayBundle), and the worker takes it from there as hostile input
// (FetchResult, Parents, ChangedPaths).

// ResultRef is the one ref task id's pod may push.
func ResultRef(id string) string { return "refs/bh/results/" + id }

// RunRef is where the worker pushes task id's run input, which the pod
// fetches and its result builds on.
func RunRef(id string) string { return "refs/bh/runs/" + id }

// PushRun points RunRef(id) at commit here and on remote, forced: the
// worker that holds the task's claim owns it.
func (r *Repo) PushRun(remote, id, commit string) error {
	if _, err := r.Write(nil, "update-ref", RunRef(id), commit); err != nil {
		return err
	}
	return r.PushRefs(remote, RunRef(id))
}

// DropRun deletes task id's run and result refs, here and on remote.
func (r *Repo) DropRun(remote, id string) error {
	var errs []error
	for _, ref := range []string{RunRef(id), ResultRef(id)} {
		r.Write(nil, "update-ref", "-d", ref) // absent here: nothing to drop
		_, err := r.Write(nil, "push", "--porcelain", remote, ":"+ref)
		if s, _ := Stderr(err); err != nil && !strings.Contains(s, "remote ref does not exist") {
			errs = append(errs, pushError(remote, err))
		}
	}
	return errors.Join(errs...)
}

// ErrNoResult is a remote that holds no result for the task (yet).
var ErrNoResult = errors.New("no result on the remote")

// RelayBundle is the helper container's one act. In a new bare
// repository at dir, hooks off as every git command of bh's, it fetches
// have (the run's input, which a thin bundle builds on) from remote,
// takes ref alone from bundle, refusing a bundle that names any other
// ref or more than one, and pushes it, forced, to the same ref on remote:
// the one push it makes, whatever the bundle says. It returns the
// commit pushed.
func RelayBundle(dir, bundle, remote, ref string, have ...string) (string, error) {
	if _, err := hooklessGit("", "init", "-q", "--bare", dir); err != nil {
		return "", err
	}
	for _, h := range have {
		if _, err := hooklessGit(dir, "fetch", "-q", "--no-write-fetch-head", remote, "+"+h+":"+h); err != nil {
			return "", &RemoteError{remote, err}
		}
	}
	oid, err := bundleHead(dir, bundle, ref)
	if err != nil {
		return "", err
	}
	if _, err := hooklessGit(dir, "fetch", "-q", "--no-write-fetch-head", bundle, "+"+ref+":"+ref); err != nil {
		return "", fmt.Errorf("take the result out of its bundle: %w", err)
	}
	if got, err := hooklessGit(dir, "rev-parse", "--verify", "-q", ref+"^{commit}"); err != nil || strings.TrimSpace(string(got)) != oid {
		return "", fmt.Errorf("the result bundle's %s is no commit %s", ref, oid)
	}
	if _, err := hooklessGit(dir, "push", "--porcelain", remote, "+"+oid+":"+ref); err != nil {
		return "", pushError(remote, err)
	}
	return oid, nil
}

// bundleHead is the commit bundle names ref: the one ref it may name.
func bundleHead(dir, bundle, ref string) (string, error) {
	out, err := hooklessGit(dir, "bundle", "list-heads", bundle)
	if err != nil {
		return "", fmt.Errorf("read the result bundle: %w", err)
	}
	heads := strings.Split(strings.TrimSpace(string(out)), "\n")
	oid, name, _ := strings.Cut(heads[0], " ")
	if len(heads) != 1 || name != ref {
		return "", fmt.Errorf("the result bundle must hold %s alone, not %q", ref, strings.TrimSpace(string(out)))
	}
	return oid, nil
}

// FetchResult fetches remote's ResultRef(id) alone, forced, to the same
// name here, and returns the commit it names: ErrNoResult when the remote
// has none. Nothing of it is checked out or trusted: see Parents and
// ChangedPaths.
func (r *Repo) FetchResult(remote, id string) (string, error) {
	ref := ResultRef(id)
	if err := r.FetchInto(remote, "+"+ref+":"+ref); err != nil {
		if s, _ := Stderr(err); strings.Contains(s, "couldn't find remote ref") {
			return "", ErrNoResult
		}
		return "", err
	}
	out, err := r.Read(nil, "rev-parse", "--verify", "-q", ref+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("the result %s is no commit: %w", ref, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// ResultSize is the size of task id's fetched result (FetchResult) as
// its pod bundled it, on input: the measure its pod and its helper bound
// it by. Not the objects on disk here: a small edit of a big file is a
// small delta in a bundle, and a whole object once unpacked.
func (r *Repo) ResultSize(id, input string) (int64, error) {
	tmp, err := os.MkdirTemp("", "bh-result-size-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	bundle := filepath.Join(tmp, "result.bundle")
	if _, err := r.Read(nil, "bundle", "create", "-q", bundle, ResultRef(id), "^"+input); err != nil {
		return 0, fmt.Errorf("measure the result %s: %w", ResultRef(id), err)
	}
	fi, err := os.Stat(bundle)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// Parents are commit's parents, in order.
func (r *Repo) Parents(commit string) ([]string, error) {
	out, err := r.Read(nil, "rev-list", "--parents", "-n", "1", commit, "--")
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", commit, err)
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return nil, fmt.Errorf("read commit %s: no such commit", commit)
	}
	return f[1:], nil
}

// CheckoutRun is the pod's side of a run's input: a repository in dir
// (a new one, or the one a restarted pod left, made clean) with remote's
// ref checked out, refused unless it is commit, the run the pod was
// given (a ref that moved since is another run's).
func CheckoutRun(dir, remote, ref, commit string) error {
	if _, err := hooklessGit("", "init", "-q", dir); err != nil {
		return err
	}
	if _, err := hooklessGit(dir, "fetch", "-q", "--no-write-fetch-head", remote, "+"+ref+":"+ref); err != nil {
		return &RemoteError{remote, err}
	}
	got, err := hooklessGit(dir, "rev-parse", "--verify", "-q", ref+"^{commit}")
	if err != nil || strings.TrimSpace(string(got)) != commit {
		return fmt.Errorf("%s on %s is %.12s, not the run %.12s this pod was given", ref, remote, got, commit)
	}
	if _, err = hooklessGit(dir, "checkout", "-q", "-f", "--detach", commit); err == nil {
		_, err = hooklessGit(dir, "clean", "-q", "-f", "-f", "-d", "-x")
	}
	return err
}

// BundleResult is the pod's side of a run's result: dir's tree as git
// add -A sees it, with files (the run's own data) put in, committed as
// one child of input on ref, and written to bundle (thin: the remote has
// input). It uses an index of its own; dir's stays as it was.
func BundleResult(dir, input, ref, bundle string, files map[string][]byte) (string, error) {
	tmp, err := os.MkdirTemp("", "bh-result-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	env := Env("GIT_INDEX_FILE="+filepath.Join(tmp, "index"), "GIT_AUTHOR_NAME=bh", "GIT_AUTHOR_EMAIL=bh@result.invalid",
		"GIT_COMMITTER_NAME=bh", "GIT_COMMITTER_EMAIL=bh@result.invalid")
	run := func(stdin []byte, args ...string) (string, error) {
		out, err := execGit(dir, env, stdin, append(slices.Clip(noHooks), args...)...)
		return strings.TrimSpace(string(out)), err
	}
	if _, err := run(nil, "read-tree", input); err != nil {
		return "", err
	}
	if _, err := run(nil, "add", "-A", "--", "."); err != nil {
		return "", err
	}
	if err := addFiles(run, files); err != nil {
		return "", err
	}
	tree, err := run(nil, "write-tree")
	if err != nil {
		return "", err
	}
	commit, err := run(nil, "commit-tree", tree, "-p", input, "-m", "bh: a run's result")
	if err != nil {
		return "", err
	}
	if _, err := run(nil, "update-ref", ref, commit); err != nil {
		return "", err
	}
	if _, err := run(nil, "bundle", "create", "-q", bundle, ref, "^"+input); err != nil {
		return "", err
	}
	return commit, nil
}

// addFiles puts files into the index run's git uses.
func addFiles(run func(stdin []byte, args ...string) (string, error), files map[string][]byte) error {
	for _, p := range slices.Sorted(maps.Keys(files)) {
		blob, err := run(files[p], "hash-object", "-w", "--stdin")
		if err == nil {
			_, err = run(nil, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+p)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
