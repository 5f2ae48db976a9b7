// Package result is how a worker takes a task pod's result (runner:
// k8s): the pod cannot push, a helper beside it pushed one ref,
// refs/bh/results/<id>, which anyone who took the pod's agent over
// could fill with anything. The worker, which runs no agent code,
// fetches that ref alone and refuses what a run could not have made.
package result

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/dustin/go-humanize"
)

// Dir is the run's own folder in the input and result commits: the
// request the worker wrote, the outcome and the session the pod wrote.
// It is data for bh, never part of the task's work.
const Dir = ".bh-run"

// In the result: the agent's answer as it printed it, and its session's
// transcript.
const (
	OutcomeFile = Dir + "/outcome.json"
	SessionFile = Dir + "/session"
	// OutboxDir holds the run's outbox, as the pod's bh mcp wrote it (the
	// questions asked, the tasks added), for the worker's outbox.
	OutboxDir = Dir + "/outbox"
)

// Result is a pod's result that passed the checks.
type Result struct {
	Commit  string       // the result commit, a child of the run's input
	Outcome agent.Result // the agent's answer, as its own parser reads it
	Paths   []string     // the task's work: the paths the run changed, Dir's left out
	Outage  *Outage      // the agent's outage in the pod, nil when none: then no work is the task's
}

// Refused is a result the worker will not take: only a pod whose agent
// went where it must not makes one. Nothing of it is checked out.
type Refused struct {
	Task, Commit, Why string
}

func (e *Refused) Error() string {
	return fmt.Sprintf("%s: the pod's result %.12s is refused: %s", e.Task, e.Commit, e.Why)
}

// ErrNone is a remote with no result for the task yet.
var ErrNone = git.ErrNoResult

// Accept fetches task id's result from remote and checks it against
// input, the commit the worker pushed as the run's input: the result
// must be one commit whose one parent is input (not another branch's
// work, nor a history of its own), change nothing in bh's store (.bh/:
// refused, not dropped, as only a tampered pod writes there), and carry
// an outcome the agents' own parser reads, and an outage (OutageFile)
// only of a kind bh knows; nor be bigger than max bytes as its pod bundled it.
func Accept(r *git.Repo, remote, id, input string, max int64) (Result, error) {
	commit, err := r.FetchResult(remote, id)
	if err != nil {
		return Result{}, err
	}
	why, err := shape(r, id, input, commit, max)
	res := Result{Commit: commit}
	if why == "" && err == nil {
		why, err = content(r, input, &res)
	}
	if why != "" {
		return Result{}, &Refused{Task: id, Commit: commit, Why: why}
	}
	if err != nil {
		return Result{}, err
	}
	return res, nil
}

// shape is why commit is no result of the run on input ("": it is
// one): not one commit on it, or bigger than max.
func shape(r *git.Repo, id, input, commit string, max int64) (string, error) {
	parents, err := r.Parents(commit)
	if err != nil {
		return "", err
	}
	if len(parents) != 1 || parents[0] != input {
		return fmt.Sprintf("it is not one commit on the run's input %.12s (its parents: %v)", input, parents), nil
	}
	size, err := r.ResultSize(id, input)
	if err != nil || size <= max {
		return "", err
	}
	return fmt.Sprintf("it is %s, more than its limit %s (k8s.maxResult)", Bytes(size), Bytes(max)), nil
}

// content reads res's commit into res (its work, outcome and outage), or
// says why it is refused.
func content(r *git.Repo, input string, res *Result) (string, error) {
	changed, err := r.ChangedPaths(input, res.Commit)
	if err != nil {
		return "", err
	}
	work, bad := split(changed)
	if bad != "" {
		return fmt.Sprintf("it changes %s, in bh's store", bad), nil
	}
	res.Paths = work
	text, err := r.FileAt(res.Commit, OutcomeFile)
	if err != nil {
		return fmt.Sprintf("it has no %s: %v", OutcomeFile, err), nil
	}
	if res.Outcome, err = agent.ParseResult(text); err != nil {
		return fmt.Sprintf("%s: %v", OutcomeFile, err), nil
	}
	if !slices.Contains(changed, OutageFile) {
		return "", nil
	}
	b, err := r.FileAt(res.Commit, OutageFile)
	if err == nil {
		res.Outage, err = readOutage(b)
	}
	if err != nil {
		return fmt.Sprintf("%s: %v", OutageFile, err), nil
	}
	return "", nil
}

// split is the task's work among the changed paths (Dir's left out),
// or the first in bh's store.
func split(changed []string) (work []string, bad string) {
	for _, p := range changed {
		switch {
		case store(p):
			return nil, p
		case p != Dir && !strings.HasPrefix(p, Dir+"/"):
			work = append(work, p)
		}
	}
	return work, ""
}

// store reports whether path p is bh's store or in it, spelt in any case
// (a case-insensitive checkout would write .BH/ into .bh/).
func store(p string) bool {
	first, _, _ := strings.Cut(path.Clean(p), "/")
	return strings.EqualFold(first, ".bh")
}

// Bytes is n bytes for a human: 12 B, 3.4 MiB.
func Bytes(n int64) string { return humanize.IBytes(uint64(max(n, 0))) }

// IsRefused reports whether err is a refused result.
func IsRefused(err error) bool {
	_, ok := errors.AsType[*Refused](err)
	return ok
}
