package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
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
// so that the worker hears of it.
func RunPod(ctx context.Context, h Handed, remote, dir, out string, newAgent NewAgent) (string, error) {
	if err := git.CheckoutRun(dir, remote, git.RunRef(h.Task), h.Run); err != nil {
		return "", err
	}
	files, err := runAgent(ctx, h, dir, newAgent)
	if err != nil {
		files = map[string][]byte{result.OutcomeFile: failed(err)}
	}
	return LeaveResult(dir, h.Run, h.Task, out, files)
}

// runAgent runs the request in dir and returns the result's own files.
func runAgent(ctx context.Context, h Handed, dir string, newAgent NewAgent) (map[string][]byte, error) {
	b, err := os.ReadFile(filepath.Join(dir, RequestFile))
	var rq Request
	if err == nil {
		err = json.Unmarshal(b, &rq)
	}
	if err != nil {
		return nil, fmt.Errorf("read the run's request: %w", err)
	}
	s, err := store.Find(dir)
	if err != nil {
		return nil, err
	}
	t, err := s.Get(h.Task)
	if err != nil {
		return nil, err
	}
	runner, err := newAgent(s, t)
	if err != nil {
		return nil, err
	}
	req := agent.Request{Prompt: rq.Prompt, Dir: dir, SessionID: rq.SessionID, Resume: rq.Resume, TaskID: h.Task,
		Timeout: rq.Timeout, Name: rq.Name, System: rq.System, AllowTools: rq.AllowTools}
	sf, _ := runner.(sessionFiler)
	files := map[string][]byte{}
	if session, err := os.ReadFile(filepath.Join(dir, result.SessionFile)); err == nil && sf != nil && rq.Resume {
		path := sf.SessionFile(req)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err == nil {
			os.WriteFile(path, session, 0o600) // none: the agent says it has no such session
		}
	}
	o, err := runner.Run(ctx, req)
	if err != nil {
		return nil, err
	}
	res, err := json.Marshal(o.Result)
	if err != nil {
		return nil, err
	}
	files[result.OutcomeFile] = res
	if o.SessionID != "" {
		files[SessionIDFile] = []byte(o.SessionID)
		req.SessionID = o.SessionID
	}
	if sf != nil && req.SessionID != "" {
		if s, err := os.ReadFile(sf.SessionFile(req)); err == nil {
			files[result.SessionFile] = s
		}
	}
	return files, nil
}

// failed is the outcome of a run that gave none.
func failed(err error) []byte {
	b, _ := json.Marshal(agent.Result{Status: agent.StatusFailed, Summary: "the agent's run in its pod: " + err.Error()})
	return b
}
