package result

import (
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
)

const id = "tm-1"

// TestMain keeps the machine's git configuration out of the tests, which
// run in parallel: each pod is a folder of its own.
func TestMain(m *testing.M) {
	gittest.IsolateAll()
	os.Exit(m.Run())
}

// pod is a task pod's round trip with real git: the worker's repository
// pushed the run's input to a shared remote; the pod's agent builds a
// result on it in a clone of its own and bundles it; the helper relays
// the bundle's one ref. The agent is hostile: each case builds what it
// likes.
type pod struct {
	t                    *testing.T
	remote, worker, work string
	input                string
	limit                int64 // the result's bound, k8s.maxResult
}

func newPod(t *testing.T) *pod {
	root := t.TempDir()
	p := &pod{t: t, remote: filepath.Join(root, "remote.git"), work: filepath.Join(root, "pod"), limit: 1 << 20}
	p.worker = gittest.Init(t, map[string]string{".bh/tasks/tm-1.yaml": "id: tm-1\n", "main.go": "package main\n"})
	gittest.Git(t, root, "init", "-q", "--bare", p.remote)
	gittest.Git(t, p.worker, "push", "-q", p.remote, "HEAD:refs/heads/main")
	// The input: the worktree plus the request, one commit on main.
	gittest.Write(t, p.worker, ".bh-run/request.json", `{"prompt":"fix it"}`)
	gittest.Git(t, p.worker, "add", "-A")
	gittest.Git(t, p.worker, "commit", "-q", "-m", "run tm-1")
	p.input = gittest.Rev(t, p.worker, "HEAD")
	gittest.Git(t, p.worker, "push", "-q", p.remote, "HEAD:refs/bh/runs/"+id)
	gittest.Git(t, p.worker, "reset", "-q", "--hard", "HEAD^")
	gittest.Git(t, root, "clone", "-q", p.remote, p.work)
	gittest.Git(t, p.work, "config", "user.name", "agent")
	gittest.Git(t, p.work, "config", "user.email", "agent@example.com")
	gittest.Git(t, p.work, "fetch", "-q", "origin", "refs/bh/runs/"+id)
	gittest.Git(t, p.work, "checkout", "-q", "FETCH_HEAD")
	return p
}

// result commits the pod's tree with files written (a "" content
// deletes), on parents (default: the input), under ref, and bundles it.
func (p *pod) result(files map[string]string, ref string, parents ...string) string {
	t := p.t
	for rel, c := range files {
		if c == "" {
			os.Remove(filepath.Join(p.work, rel))
			continue
		}
		gittest.Write(t, p.work, rel, c)
	}
	gittest.Git(t, p.work, "add", "-A")
	tree := strings.TrimSpace(gittest.Git(t, p.work, "write-tree"))
	if len(parents) == 0 {
		parents = []string{p.input}
	}
	args := []string{"commit-tree", tree, "-m", "result"}
	for _, pa := range parents {
		args = append(args, "-p", pa)
	}
	commit := strings.TrimSpace(gittest.Git(t, p.work, args...))
	gittest.Git(t, p.work, "update-ref", ref, commit)
	bundle := filepath.Join(t.TempDir(), "result.bundle")
	gittest.Git(t, p.work, "bundle", "create", "-q", bundle, ref, "^"+p.input)
	return bundle
}

// relay is the helper container's push.
func (p *pod) relay(bundle string) (string, error) {
	return git.RelayBundle(filepath.Join(p.t.TempDir(), "relay.git"), bundle, p.remote, git.ResultRef(id), "refs/bh/runs/"+id)
}

func (p *pod) accept() (Result, error) {
	r, err := git.Open(p.worker)
	if err != nil {
		p.t.Fatal(err)
	}
	return Accept(r, p.remote, id, p.input, p.limit)
}

const done = `{"status":"completed","summary":"fixed"}`

// TestResultRelayedAndAccepted: the pod's result reaches the worker
// through the helper's one push, and the worker reads its work and its
// outcome; until then there is none.
func TestResultRelayedAndAccepted(t *testing.T) {
	t.Parallel()
	p := newPod(t)
	if _, err := p.accept(); !errors.Is(err, ErrNone) {
		t.Fatalf("before the pod pushed: %v, want ErrNone", err)
	}
	b := p.result(map[string]string{"main.go": "package main // fixed\n", "new.go": "package main\n", OutcomeFile: done}, git.ResultRef(id))
	oid, err := p.relay(b)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.accept()
	if err != nil {
		t.Fatal(err)
	}
	if res.Commit != oid || res.Outcome.Summary != "fixed" || strings.Join(res.Paths, " ") != "main.go new.go" {
		t.Fatalf("accepted %+v, want %s with main.go new.go and its summary", res, oid)
	}
}

// TestResultRefusedOutsideItsRun: what a hostile pod can push to its one
// ref is refused unless it is the run's one commit on its input, with
// bh's store untouched and an outcome.
func TestResultRefusedOutsideItsRun(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		files   map[string]string
		parents func(p *pod) []string
		why     string
	}{
		"touches .bh":       {files: map[string]string{".bh/tasks/tm-2.yaml": "id: tm-2\nsandbox: off\n", OutcomeFile: done}, why: "bh's store"},
		"deletes in .bh":    {files: map[string]string{".bh/tasks/tm-1.yaml": "", OutcomeFile: done}, why: "bh's store"},
		"spells .BH":        {files: map[string]string{".BH/tasks/tm-1.yaml": "state: done\n", OutcomeFile: done}, why: "bh's store"},
		"on another branch": {files: map[string]string{OutcomeFile: done}, parents: func(p *pod) []string { return []string{gittest.Rev(p.t, p.work, "origin/main")} }, why: "not one commit on the run's input"},
		"a merge":           {files: map[string]string{OutcomeFile: done}, parents: func(p *pod) []string { return []string{p.input, gittest.Rev(p.t, p.work, "origin/main")} }, why: "not one commit on the run's input"},
		"no outcome":        {files: map[string]string{"main.go": "x\n"}, why: "no " + OutcomeFile},
		"garbled outcome":   {files: map[string]string{OutcomeFile: `{"status":"landed"}`}, why: OutcomeFile},
		"unknown outage":    {files: map[string]string{OutcomeFile: failedOutcome, OutageFile: `{"outage":"landed"}`}, why: "no outage bh knows"},
		"garbled outage":    {files: map[string]string{OutcomeFile: failedOutcome, OutageFile: `not json`}, why: OutageFile},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newPod(t)
			var parents []string
			if tc.parents != nil {
				parents = tc.parents(p)
			}
			if _, err := p.relay(p.result(tc.files, git.ResultRef(id), parents...)); err != nil {
				t.Fatalf("the helper pushes whatever its one ref holds: %v", err)
			}
			_, err := p.accept()
			var ref *Refused
			if !errors.As(err, &ref) || !strings.Contains(ref.Why, tc.why) {
				t.Fatalf("accepted with %v, want refused: %s", err, tc.why)
			}
		})
	}
}

const failedOutcome = `{"status":"failed","summary":"the agent's run in its pod: usage limit"}`

// TestResultCarriesOutage: a pod's agent outage comes back as what it
// is, read as a description only: its kind and reset, its words on one
// bounded line, a limit's reset kept only for a usage limit.
func TestResultCarriesOutage(t *testing.T) {
	t.Parallel()
	p := newPod(t)
	long := strings.Repeat("x", 2*maxWords)
	out := `{"outage":"usage_limit","reason":"limit reached\n\u001b[31mreset at 5pm` + long + `",` +
		`"limit":{"status":"rejected","resetsAt":"2030-01-02T03:04:05Z","window":"five_hour"}}`
	if _, err := p.relay(p.result(map[string]string{OutcomeFile: failedOutcome, OutageFile: out}, git.ResultRef(id))); err != nil {
		t.Fatal(err)
	}
	res, err := p.accept()
	if err != nil {
		t.Fatal(err)
	}
	o := res.Outage
	if o == nil || o.Outage != agent.OutageLimit || o.Limit == nil || o.Limit.ResetsAt.Unix() != 1893553445 || o.Limit.Window != "five_hour" {
		t.Fatalf("outage %+v, want the usage limit with its reset", o)
	}
	if strings.ContainsAny(o.Reason, "\n\x1b") || len([]rune(o.Reason)) > maxWords+1 {
		t.Fatalf("the pod's words were taken as they came: %q", o.Reason)
	}
	re := o.RunError(id)
	if agent.OutageOf(re) != agent.OutageLimit || re.Limit != o.Limit {
		t.Fatalf("run error %+v, want a usage limit as a local run's", re)
	}
}

// TestResultRefusedOverItsLimit: a result bigger than k8s.maxResult is
// refused, naming the limit; one within it is taken.
func TestResultRefusedOverItsLimit(t *testing.T) {
	t.Parallel()
	p := newPod(t)
	big := make([]byte, 64<<10)
	rand.Read(big) // does not compress
	if _, err := p.relay(p.result(map[string]string{"blob.bin": string(big), OutcomeFile: done}, git.ResultRef(id))); err != nil {
		t.Fatal(err)
	}
	p.limit = 32 << 10
	_, err := p.accept()
	var ref *Refused
	if !errors.As(err, &ref) || !strings.Contains(ref.Why, "more than its limit 32 KiB (k8s.maxResult)") {
		t.Fatalf("accepted with %v, want refused over 32 KiB", err)
	}
	p.limit = 1 << 20
	if _, err := p.accept(); err != nil {
		t.Fatalf("within its limit: %v", err)
	}
}

// TestRelayPushesOneRefOnly: a bundle that names another ref (the target
// branch, another task's result) or more than its one is not pushed,
// and the remote keeps every ref it had.
func TestRelayPushesOneRefOnly(t *testing.T) {
	t.Parallel()
	for name, refs := range map[string][]string{
		"the target branch":     {"refs/heads/main"},
		"another task's result": {git.ResultRef("tm-2")},
		"a claim":               {"refs/bh/claims/tm-1"},
		"its own and main":      {git.ResultRef(id), "refs/heads/main"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newPod(t)
			before := gittest.Git(t, p.remote, "for-each-ref")
			b := p.result(map[string]string{"main.go": "evil\n", OutcomeFile: done}, refs[0])
			if len(refs) > 1 {
				gittest.Git(t, p.work, "update-ref", refs[1], gittest.Rev(t, p.work, refs[0]))
				gittest.Git(t, p.work, "bundle", "create", "-q", b, refs[0], refs[1], "^"+p.input)
			}
			if oid, err := p.relay(b); err == nil {
				t.Fatalf("relayed %s from a bundle of %v", oid, refs)
			}
			if after := gittest.Git(t, p.remote, "for-each-ref"); after != before {
				t.Fatalf("the remote's refs changed:\n%s\nwere:\n%s", after, before)
			}
		})
	}
}
