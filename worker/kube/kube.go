// Package kube runs the agent of each task the worker runs in a pod of
// its own (runner: k8s), an agent.Runner: the worker claims the task,
// prepares its worktree, and decides, checks and lands after the run as
// for a local one; only the agent runs in the pod, which an
// agent-sandbox SandboxClaim takes from the warm pool. The pod holds no
// credential that can push: it gets the run's input as a commit the
// worker pushed (refs/bh/runs/<id>) and hands its result back through a
// helper container that pushes one ref (refs/bh/results/<id>), which the
// worker checks as hostile input (package result). It is also how the
// pod's two containers (bh run-task) find their run and hand it back.
package kube

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/mcp"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/kube/kubeapi"
	"github.com/bh-tracker/bh/worker/kube/result"
	"github.com/bh-tracker/bh/worker/slots"
)

// The annotations a task's pod reads: its task, and its run's input
// commit (refs/bh/runs/<task> on the remote).
const (
	AnnotationTask = "bh.dev/task"
	AnnotationRun  = "bh.dev/run"
)

// The run's own files in its input and result (see result.Dir).
const (
	RequestFile   = result.Dir + "/request.json"
	SessionIDFile = result.Dir + "/session-id"
)

// The resources the runner reads and writes.
var (
	SandboxClaims = kubeapi.Resource{Group: "extensions.agents.x-k8s.io", Version: "v1beta1", Resource: "sandboxclaims"}
	Sandboxes     = kubeapi.Resource{Group: "agents.x-k8s.io", Version: "v1beta1", Resource: "sandboxes"}
	Pods          = kubeapi.Resource{Version: "v1", Resource: "pods"}
)

// Request is what the pod's agent is asked (RequestFile): the worker's
// agent.Request, less what only a local process has.
type Request struct {
	Prompt     string        `json:"prompt"`
	Dir        string        `json:"dir,omitempty"` // the agent's folder in the worktree (agent.dir:), relative
	System     string        `json:"system,omitempty"`
	SessionID  string        `json:"sessionId,omitempty"`
	Resume     bool          `json:"resume,omitempty"`
	Name       string        `json:"name,omitempty"`
	AllowTools []string      `json:"allowTools,omitempty"`
	Timeout    time.Duration `json:"timeout,omitempty"`
}

// Runner runs agents in task pods (an agent.Runner).
type Runner struct {
	Client kubeapi.API
	K8s    config.K8sConfig
	Repo   *git.Repo     // the worker's repository
	Remote string        // the shared remote, as Repo names it
	State  string        // where the pods' session transcripts are kept here
	Poll   time.Duration // how often the result and the pod are looked at; default 2s
	Warn   func(format string, args ...any)
}

// SessionFile is where the runner keeps req's session transcript here:
// the pod's, brought back with its result, sent with the next input.
func (r *Runner) SessionFile(req agent.Request) string {
	return filepath.Join(r.State, req.TaskID, req.SessionID+".jsonl")
}

// Run runs req's agent in a pod of the warm pool on the worktree's state
// and brings its result back into the worktree. A result the checks
// refuse, a pod that fails or is not bound in time, are a RunError (an
// outage when no pod could be had, or when the pod's agent met one);
// nothing of theirs is taken.
func (r *Runner) Run(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
	start := time.Now()
	id := req.TaskID
	wt, err := r.worktree(req)
	if err != nil {
		return nil, runError(id, "open its worktree", err)
	}
	input, err := r.input(wt, req)
	if err != nil {
		return nil, runError(id, "write the run's input", err)
	}
	if err := r.Repo.PushRun(r.Remote, id, input); err != nil {
		return nil, runError(id, "push the run's input", err)
	}
	name := claimName(id)
	defer r.end(id, name)
	if err := r.Client.Create(ctx, SandboxClaims, r.K8s.NamespaceOr(), r.sandboxClaim(id, name, input)); err != nil {
		return nil, runError(id, "ask for a pod", err)
	}
	res, err := r.wait(ctx, id, name, input)
	if err != nil {
		return nil, err
	}
	if err := r.take(wt, req, res); err != nil {
		return nil, err
	}
	raw, _ := r.Repo.FileAt(res.Commit, result.OutcomeFile)
	out := &agent.Outcome{Result: res.Outcome, SessionID: req.SessionID, Raw: raw, Duration: time.Since(start)}
	if sid, err := r.Repo.FileAt(res.Commit, SessionIDFile); err == nil && validSession(string(sid)) {
		out.SessionID = string(sid)
	}
	r.keepSession(req, out.SessionID, res.Commit)
	return out, nil
}

// worktree is req's task's worktree: BH_WORKTREE in its environment,
// of which the agent's folder may be a part, else the agent's folder.
func (r *Runner) worktree(req agent.Request) (*git.Worktree, error) {
	root := req.Dir
	for _, e := range req.Env {
		if v, ok := strings.CutPrefix(e, "BH_WORKTREE="); ok {
			root = v
		}
	}
	wt, err := r.Repo.OpenWorktree(root, slots.Branch(req.TaskID))
	if err == nil && wt == nil {
		err = fmt.Errorf("%s is not its worktree", root)
	}
	return wt, err
}

// input is the run's input commit: the worktree's state, the request,
// and the session's transcript to resume.
func (r *Runner) input(wt *git.Worktree, req agent.Request) (string, error) {
	head, err := wt.Head()
	if err != nil {
		return "", err
	}
	sub, err := filepath.Rel(wt.Path, req.Dir)
	if err != nil || !filepath.IsLocal(sub) {
		return "", fmt.Errorf("the agent's folder %s is not in its worktree %s", req.Dir, wt.Path)
	}
	b, err := json.Marshal(Request{Prompt: req.Prompt, Dir: filepath.ToSlash(sub), System: req.System, SessionID: req.SessionID, Resume: req.Resume,
		Name: req.Name, AllowTools: req.AllowTools, Timeout: req.Timeout})
	if err != nil {
		return "", err
	}
	files := map[string][]byte{RequestFile: b}
	if req.Resume && req.SessionID != "" {
		if s, err := os.ReadFile(r.SessionFile(req)); err == nil {
			files[result.SessionFile] = s
		}
	}
	return wt.RunInput(head, files)
}

// take takes the accepted result res: its outbox into req's; its outage
// as a local agent's (the worker pauses, the task is not failed), its
// work left; else its work into the worktree.
func (r *Runner) take(wt *git.Worktree, req agent.Request, res result.Result) error {
	if err := r.carryOutbox(req, res.Commit); err != nil {
		return runError(req.TaskID, "carry the questions its agent asked", err)
	}
	if res.Outage != nil {
		return res.Outage.RunError(req.TaskID)
	}
	if err := wt.TakeResult(res.Commit, res.Paths); err != nil {
		return runError(req.TaskID, "take the pod's result", err)
	}
	return nil
}

// carryOutbox puts the outbox the pod's bh mcp wrote (the questions its
// agent asked, the tasks it added), as the result commit carries it,
// into req's outbox, where the worker takes it as it takes a local run's
// (as hostile input: it parks the task with those questions).
func (r *Runner) carryOutbox(req agent.Request, commit string) error {
	for _, name := range mcp.OutboxFiles {
		b, err := r.Repo.FileAt(commit, path.Join(result.OutboxDir, name))
		if err != nil || len(b) == 0 { // none: it asked nothing
			continue
		}
		if err := mcp.PutOutbox(req.Outbox, name, b); err != nil {
			return err
		}
	}
	return nil
}

// keepSession keeps the result's session transcript where SessionFile
// says, for the worker to copy (as it copies a local agent's, untrusted).
func (r *Runner) keepSession(req agent.Request, sid, commit string) {
	s, err := r.Repo.FileAt(commit, result.SessionFile)
	if err != nil || len(s) == 0 || sid == "" {
		return
	}
	req.SessionID = sid
	path := r.SessionFile(req)
	if err = os.MkdirAll(filepath.Dir(path), 0o700); err == nil {
		err = os.WriteFile(path, s, 0o600)
	}
	if err != nil {
		r.warnf("%s: keep the session's transcript: %v", req.TaskID, err)
	}
}

func validSession(s string) bool {
	return len(s) > 0 && len(s) <= 64 && strings.Trim(s, sessionChars) == ""
}

// sessionChars are what the agents' session ids are made of.
const sessionChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-"

// wait waits for the pod's result and checks it; a pod that is not bound
// in time, or fails before it gave one, ends the wait.
func (r *Runner) wait(ctx context.Context, id, name, input string) (result.Result, error) {
	bind := time.NewTimer(r.K8s.BindTimeoutOr())
	defer bind.Stop()
	tick := time.NewTicker(r.poll())
	defer tick.Stop()
	var p pod
	late := false
	for {
		res, err := result.Accept(r.Repo, r.Remote, id, input, r.K8s.MaxResultOr())
		switch {
		case err == nil:
			return res, nil
		case result.IsRefused(err):
			return res, &agent.RunError{Reason: err.Error(), ExitCode: -1, Err: err}
		case !errors.Is(err, result.ErrNone):
			r.warnf("%s: look at its result: %v (looked at again)", id, err)
		}
		p = r.look(ctx, name, p)
		if err := r.podError(id, p, late); err != nil {
			return result.Result{}, err
		}
		select {
		case <-ctx.Done():
			return result.Result{}, &agent.RunError{Reason: "stopped", ExitCode: -1, Err: ctx.Err()}
		case <-bind.C:
			late = true
		case <-tick.C:
		}
	}
}

// podError is the run's end when its pod will not give a result: it
// cannot pull its image or was not bound in time (an outage), or it
// failed; nil while it may.
func (r *Runner) podError(id string, p pod, late bool) error {
	if p.trouble == "" && (!late || p.bound) {
		return nil
	}
	why := p.trouble
	if why == "" {
		why = fmt.Sprintf("was not bound within %s", r.K8s.BindTimeoutOr())
	}
	err := fmt.Errorf("%s: its pod %s", id, why)
	e := &agent.RunError{Reason: err.Error(), ExitCode: -1, Err: err}
	if !p.bound || p.pull {
		e.Outage = agent.OutageOverloaded
	}
	return e
}

// end deletes the SandboxClaim, and with it the pod, and the run's refs.
func (r *Runner) end(id, name string) {
	err := r.Client.Delete(context.Background(), SandboxClaims, r.K8s.NamespaceOr(), name)
	if err != nil && !errors.Is(err, kubeapi.ErrNotFound) {
		r.warnf("%s: delete its SandboxClaim %s: %v (its TTL ends it)", id, name, err)
	}
	if err := r.Repo.DropRun(r.Remote, id); err != nil {
		r.warnf("%s: delete the run's refs: %v", id, err)
	}
}

func runError(id, what string, err error) error {
	err = fmt.Errorf("%s: %s: %w", id, what, err)
	return &agent.RunError{Reason: err.Error(), ExitCode: -1, Err: err}
}

// sandboxClaim is the SandboxClaim of task id's pod.
func (r *Runner) sandboxClaim(id, name, input string) map[string]any {
	return map[string]any{
		"apiVersion": SandboxClaims.APIVersion(),
		"kind":       "SandboxClaim",
		"metadata":   map[string]any{"name": name, "namespace": r.K8s.NamespaceOr(), "annotations": map[string]any{AnnotationTask: id}},
		"spec": map[string]any{
			"warmPoolRef": map[string]any{"name": r.K8s.WarmPoolOr()},
			// The cluster deletes it by then whatever happens to this worker.
			"lifecycle": map[string]any{"shutdownPolicy": "Delete",
				"shutdownTime": time.Now().Add(r.K8s.ClaimTTLOr()).UTC().Format(time.RFC3339)},
			"additionalPodMetadata": map[string]any{"annotations": map[string]any{AnnotationTask: id, AnnotationRun: input}},
		},
	}
}

func (r *Runner) warnf(format string, args ...any) {
	if r.Warn != nil {
		r.Warn(format, args...)
	}
}

func (r *Runner) poll() time.Duration {
	if r.Poll > 0 {
		return r.Poll
	}
	return 2 * time.Second
}

// notName is compiled on first use: every bh command pays for package
// initialisation, and few run pods.
var notName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9-]+`) })

// claimName is a new SandboxClaim's name for task id: its own each time,
// so that one deleted a moment ago never stands in the way.
func claimName(id string) string {
	b := make([]byte, 3)
	rand.Read(b)
	n := strings.Trim(notName().ReplaceAllString(strings.ToLower(id), "-"), "-")
	return "bh-" + n[:min(len(n), 48)] + "-" + hex.EncodeToString(b)
}
