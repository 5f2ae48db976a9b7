package kube

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/mcp"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/kube/result"
)

// NewAgent makes the agent task t runs with, as the repository's config
// in s says (worker.NewRunner: a parent package's, so it is passed in).
type NewAgent func(s *store.Store, t *task.Task) (agent.Runner, error)

// sessionFiler is an agent whose sessions live in files (the worker's
// interface of the same name).
type sessionFiler interface {
	SessionFile(req agent.Request) string
}

// RunPod is the agent's container's whole run (bh run-task): it checks
// out in dir, a new folder, the run it was given, runs the agent the
// input's config names on the input's request, and leaves the result in
// out for the helper container. It pushes nothing and needs no
// credential that can. Trouble after the checkout is a failed outcome,
// so that the worker hears of it, and so is a result over its limit
// (k8s.maxResult in the input's config, the worker's: none of its work
// is kept); an outage of the agent's (its usage limit, its API) is
// carried beside it, so that the worker pauses on it.
func RunPod(ctx context.Context, h Handed, remote, dir, out string, newAgent NewAgent) (string, error) {
	if err := git.CheckoutRun(dir, remote, git.RunRef(h.Task), h.Run); err != nil {
		return "", err
	}
	max := maxResult(dir) // read before the agent can change it
	files, err := runAgent(ctx, h, dir, newAgent)
	if err != nil {
		files[result.OutcomeFile] = failed(err)
	}
	commit, err := LeaveResult(dir, h.Run, h.Task, out, files, max)
	if big, ok := errors.AsType[*TooBig](err); ok { // a failed run, its work left out, so that the worker hears why
		if err = git.CheckoutRun(dir, remote, git.RunRef(h.Task), h.Run); err == nil {
			commit, err = LeaveResult(dir, h.Run, h.Task, out, slim(files, big), max)
		}
	}
	return commit, err
}

// slim is the result's own files for a result over its limit (big): a
// failed outcome that says so, and what the worker must still hear of
// (the agent's outage, its questions), bounded; no work, no transcript.
func slim(files map[string][]byte, big error) map[string][]byte {
	out := map[string][]byte{result.OutcomeFile: failed(big)}
	for name, b := range files {
		if name == result.OutageFile || strings.HasPrefix(name, result.OutboxDir+"/") {
			out[name] = b
		}
	}
	return out
}

// runAgent runs the request in dir and returns the result's own files:
// those of the run's outbox (the questions the agent asked through bh
// mcp, the tasks it added) even when it failed.
func runAgent(ctx context.Context, h Handed, dir string, newAgent NewAgent) (map[string][]byte, error) {
	files := map[string][]byte{}
	req, runner, err := request(h, dir, newAgent)
	if err == nil { // bh mcp's outbox: the pod's own, outside the checkout, carried in the result
		req.Outbox, err = os.MkdirTemp("", "bh-outbox-")
	}
	if err != nil {
		return files, err
	}
	defer os.RemoveAll(req.Outbox)
	req.Env = append(req.Env, mcp.OutboxEnv+"="+req.Outbox)
	sf, _ := runner.(sessionFiler)
	if sf != nil && req.Resume {
		restoreSession(sf.SessionFile(req), filepath.Join(dir, result.SessionFile))
	}
	o, err := runner.Run(ctx, req)
	if oerr := carry(files, req.Outbox, err); err == nil {
		err = oerr
	}
	if err != nil {
		return files, err
	}
	files[result.OutcomeFile], _ = json.Marshal(o.Result) // plain fields: it cannot fail
	leaveSession(files, sf, req, o.SessionID)
	return files, nil
}

// leaveSession puts the run's session (sid, else req's) and, when the
// agent keeps it in a file (sf), its transcript into the result's files.
func leaveSession(files map[string][]byte, sf sessionFiler, req agent.Request, sid string) {
	if sid != "" {
		files[SessionIDFile] = []byte(sid)
		req.SessionID = sid
	}
	if sf != nil && req.SessionID != "" {
		if s, err := os.ReadFile(sf.SessionFile(req)); err == nil {
			files[result.SessionFile] = s
		}
	}
}

// carry puts what the run's outbox holds into the result's files, and
// the agent's outage when its run (runErr) met one: its own trouble, not
// the pod's (a request it cannot read is none).
func carry(files map[string][]byte, outbox string, runErr error) error {
	if o := result.OutageOf(runErr); o != nil {
		files[result.OutageFile], _ = json.Marshal(o) // plain fields: it cannot fail
	}
	got, err := mcp.ReadOutbox(outbox)
	for name, b := range got {
		files[path.Join(result.OutboxDir, name)] = b
	}
	return err
}

// request is the run's request in dir, as the agent's, and its agent.
func request(h Handed, dir string, newAgent NewAgent) (agent.Request, agent.Runner, error) {
	b, err := os.ReadFile(filepath.Join(dir, RequestFile))
	var rq Request
	if err == nil {
		err = json.Unmarshal(b, &rq)
	}
	if err == nil && rq.Dir != "" && !filepath.IsLocal(rq.Dir) {
		err = fmt.Errorf("its folder %q is not in its checkout", rq.Dir)
	}
	if err != nil {
		return agent.Request{}, nil, fmt.Errorf("read the run's request: %w", err)
	}
	s, err := store.Find(dir)
	var t *task.Task
	if err == nil {
		t, err = s.Get(h.Task)
	}
	var runner agent.Runner
	if err == nil {
		runner, err = newAgent(s, t)
	}
	return agent.Request{Prompt: rq.Prompt, Dir: filepath.Join(dir, rq.Dir), SessionID: rq.SessionID, Resume: rq.Resume,
		TaskID: h.Task, Timeout: rq.Timeout, Name: rq.Name, System: rq.System, AllowTools: rq.AllowTools}, runner, err
}

// maxResult is the bound on the result of the run checked out in dir:
// its config's, which is the worker's (the default when it has none).
func maxResult(dir string) int64 {
	if s, err := store.Find(dir); err == nil {
		return s.Config.K8s.MaxResultOr()
	}
	return config.DefaultMaxResult
}

// restoreSession puts the transcript the input brought (from) where the
// agent keeps it (to); none: the agent says it has no such session.
func restoreSession(to, from string) {
	if session, err := os.ReadFile(from); err == nil && os.MkdirAll(filepath.Dir(to), 0o700) == nil {
		os.WriteFile(to, session, 0o600)
	}
}

// failed is the outcome of a run that gave none.
func failed(err error) []byte {
	b, _ := json.Marshal(agent.Result{Status: agent.StatusFailed, Summary: "the agent's run in its pod: " + err.Error()})
	return b
}
