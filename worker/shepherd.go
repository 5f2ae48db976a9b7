package worker

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/notify"
)

// A pull request as gh api reports it, and the feedback on it.
type (
	ghPull struct {
		State          string `json:"state"`
		Merged         bool   `json:"merged"`
		Mergeable      *bool  `json:"mergeable"`
		MergeableState string `json:"mergeable_state"`
		Head           struct {
			SHA string `json:"sha"`
		} `json:"head"`
		Base struct {
			Ref string `json:"ref"`
		} `json:"base"`
	}
	ghChecks struct {
		Runs []struct {
			ID         int64  `json:"id"`
			Name       string `json:"name"`
			Conclusion string `json:"conclusion"`
		} `json:"check_runs"`
	}
	ghComment struct {
		ID   int64  `json:"id"`
		Path string `json:"path"`
		Line int    `json:"line"`
		Body string `json:"body"`
		User struct {
			Login string `json:"login"`
		} `json:"user"`
	}
)

// logTail is how much of a failed job's log the agent is shown.
const logTail = 3000

// Shepherd polls the pull request of every task in review once and acts
// on what it finds: merged closes the task, closed unmerged asks the
// human, and new feedback (a failed check with its log, review comments
// with file and line, a conflict with the base) reopens it so that a
// worker resumes the same session, which pushes to the same pull request.
// Each change is one update of the task file, which records what it
// answered: a crash before it is polled again, one after is not redone.
func Shepherd(ctx context.Context, s *store.Store, opt Options) error {
	opt.defaults(s.Config)
	w := &worker{s: s, opt: opt} // no agent runs here: none is set up
	closeNotifier, err := w.openNotifier()
	if err != nil {
		return err
	}
	defer closeNotifier()
	return w.shepherd(ctx)
}

func (w *worker) shepherd(ctx context.Context) error {
	brief, _, err := w.s.ListBrief() // the cache's quick listing: most stores have none in review
	if err != nil {
		return err
	}
	var errs []string
	for _, b := range brief {
		if b.State != task.InReview {
			continue
		}
		t, err := w.s.Get(b.ID) // whole, history included: its PR and the feedback seen
		if err == nil {
			err = w.shepherdOne(ctx, t)
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", t.ID, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("shepherd: %s", strings.Join(errs, "; "))
	}
	return nil
}

func (w *worker) shepherdOne(ctx context.Context, t *task.Task) error {
	url := t.PullRequest()
	p, ok := parsePR(url)
	if !ok {
		return fmt.Errorf("no pull request in its history (%q)", url)
	}
	var pull ghPull
	if err := w.ghAPI(ctx, p, fmt.Sprintf("pulls/%d", p.Number), &pull); err != nil {
		return err
	}
	switch {
	case pull.Merged:
		return w.reviewed(t.ID, func(t *task.Task, at task.Event) error {
			t.Summary = firstOf(t.Summary, "merged")
			return t.SetState(task.Closed, at.At, w.opt.Name, "pull request merged: "+url)
		})
	case pull.State == "closed":
		return w.reviewed(t.ID, func(t *task.Task, at task.Event) error {
			return w.escalate(t, at, fmt.Sprintf("The pull request %s was closed without being merged. "+
				"Answer with guidance to resume the agent (its next completion opens a new one), or close the task.", url), "")
		})
	}
	text, keys, err := w.feedback(ctx, p, pull, seenFeedback(t))
	if err != nil || len(keys) == 0 {
		return err
	}
	return w.reviewed(t.ID, func(t *task.Task, at task.Event) error {
		t.Record(at.At, task.Event{Kind: task.EventFeedback, By: w.opt.Name, Text: text,
			Context: strings.Join(keys, " "), Commit: pull.Head.SHA})
		if n := reviewRounds(t); n > w.opt.ReviewRounds {
			return w.escalate(t, at, fmt.Sprintf("%d rounds of feedback on %s did not settle it. "+
				"Answer with guidance to resume the agent, or close the task.", n-1, url), text)
		}
		return t.SetState(task.Open, at.At, w.opt.Name, "pull request feedback: "+oneLine(firstLineOf(text)))
	})
}

// reviewed applies one decision to a task still in review, atomically,
// and tells the human when it now waits on them.
func (w *worker) reviewed(id string, f func(*task.Task, task.Event) error) error {
	t, err := w.s.Update(id, func(t *task.Task) error {
		if t.State != task.InReview {
			return errNotOurs // a human or another worker moved it meanwhile
		}
		return f(t, task.Event{At: w.now()})
	})
	switch {
	case errors.Is(err, errNotOurs):
		return nil
	case err == nil && t.State == task.AwaitingInput:
		w.notify(notify.EventInputRequested, t)
	case err == nil && t.State == task.Failed: // escalated under human: false
		w.notify(notify.EventTaskFailed, t)
	}
	return err
}

// escalate asks the human about a pull request (a freeform question:
// guidance resumes the session); a task that may not ask (human: false)
// fails instead, the question kept flat.
func (w *worker) escalate(t *task.Task, at task.Event, question, context string) error {
	p := w.policy(t)
	e := ending.Decide(ending.Facts{What: ending.PRReview, Policy: p, Reason: question, Cause: context})
	if e.State != task.AwaitingInput {
		t.Summary, t.Details, t.Question, t.QuestionContext = e.Summary, e.Details, e.Flat, e.Context
		return t.SetState(e.State, at.At, w.opt.Name, e.Note)
	}
	ask(t, at.At, e.Ask, context, w.expiry(p, at.At))
	return t.SetState(task.AwaitingInput, at.At, w.opt.Name, e.Note)
}

// feedback gathers what is new on the pull request since the keys seen:
// each failed check run with its log's tail, each review comment with its
// file and line, a conflict with the base at this head.
func (w *worker) feedback(ctx context.Context, p prRef, pull ghPull, seen map[string]bool) (string, []string, error) {
	var b strings.Builder
	var keys []string
	var checks ghChecks
	if err := w.ghAPI(ctx, p, "commits/"+pull.Head.SHA+"/check-runs", &checks); err != nil {
		return "", nil, err
	}
	for _, c := range checks.Runs {
		key := fmt.Sprintf("check:%d", c.ID)
		if seen[key] || !slices.Contains([]string{"failure", "timed_out", "cancelled"}, c.Conclusion) {
			continue
		}
		var log string
		if err := w.ghAPI(ctx, p, fmt.Sprintf("actions/jobs/%d/logs", c.ID), &log); err != nil {
			log = "(its log could not be read: " + err.Error() + ")"
		}
		fmt.Fprintf(&b, "### Check %q failed (%s)\nThe end of its log:\n```\n%s\n```\n\n", c.Name, c.Conclusion,
			strings.TrimSpace(tailString(log, logTail)))
		keys = append(keys, key)
	}
	var comments []ghComment
	if err := w.ghAPI(ctx, p, fmt.Sprintf("pulls/%d/comments", p.Number), &comments); err != nil {
		return "", nil, err
	}
	for _, c := range comments {
		key := fmt.Sprintf("comment:%d", c.ID)
		if seen[key] {
			continue
		}
		fmt.Fprintf(&b, "### Review comment by %s on %s line %d\n%s\n\n", c.User.Login, c.Path, c.Line,
			strings.TrimSpace(c.Body))
		keys = append(keys, key)
	}
	if key := "conflict:" + pull.Head.SHA; pull.MergeableState == "dirty" && !seen[key] {
		fmt.Fprintf(&b, "### A conflict with %s\nThe base branch moved on and the pull request no longer merges. "+
			"bh rebases your work onto it when you report completed; a conflict it meets comes back to you.\n\n",
			pull.Base.Ref)
		keys = append(keys, key)
	}
	return strings.TrimSpace(b.String()), keys, nil
}

// PullRequest is the task's pull request (land: pr), "" if none, and
// the rounds of its feedback sent back to the agent since a human answered.
func PullRequest(t *task.Task) (url string, rounds int) { return t.PullRequest(), reviewRounds(t) }

// seenFeedback is every piece of feedback already sent back.
func seenFeedback(t *task.Task) map[string]bool {
	seen := map[string]bool{}
	for _, e := range t.History {
		if e.Kind == task.EventFeedback {
			for _, k := range strings.Fields(e.Context) {
				seen[k] = true
			}
		}
	}
	return seen
}

// reviewRounds counts the rounds of feedback since a human last answered.
func reviewRounds(t *task.Task) int {
	n := 0
	for _, e := range t.History {
		switch e.Kind {
		case task.EventFeedback:
			n++
		case task.EventInputReceived:
			n = 0
		}
	}
	return n
}

// pendingFeedback is the feedback a resumed run must address: the last
// round's, when no run started since; and the pull request's URL. Once a
// human answered about it (an escalation, whose question carries the
// feedback), the usual resume prompt gives both.
func pendingFeedback(t *task.Task) (text, url string) {
	for i := len(t.History) - 1; i >= 0; i-- {
		switch e := t.History[i]; e.Kind {
		case task.EventRunStarted, task.EventInputReceived:
			return "", ""
		case task.EventFeedback:
			return e.Text, t.PullRequest()
		}
	}
	return "", ""
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(strings.TrimPrefix(s, "### "), "\n")
	return l
}

func tailString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
