package github

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/act"
)

// Result is what a sync did, for the command to tell.
type Result struct {
	Repo     string   `json:"repo"`
	Added    []string `json:"added"`    // tasks made from new issues
	Updated  []string `json:"updated"`  // tasks whose description followed their issue's
	Shown    []string `json:"shown"`    // an edit not applied: the task's run has started
	Deferred []string `json:"deferred"` // tasks whose issue closed
	Asked    []string `json:"asked"`    // questions posted on their issue
	Answered []string `json:"answered"` // tasks answered from their issue
	Polls    int      `json:"polls"`    // requests that found something new (not a 304)
}

// importIssues makes tasks of the issues the config picks, once each.
func (x *syncer) importIssues(ctx context.Context) error {
	issues, newest, err := x.fetchIssues(ctx)
	if err != nil {
		return err
	}
	for _, is := range issues {
		if err := x.importOne(is); err != nil {
			return err
		}
	}
	x.st.IssuesSince = newest
	return nil
}

// fetchIssues lists the issues changed since the last pass, and the newest
// change among them.
func (x *syncer) fetchIssues(ctx context.Context) ([]Issue, string, error) {
	queries := []url.Values{{"labels": {x.cfg.IssueLabel()}}}
	if x.cfg.Assignee != "" {
		queries = append(queries, url.Values{"assignee": {x.cfg.Assignee}})
	}
	var issues []Issue
	newest := x.st.IssuesSince
	for _, q := range queries {
		got, changed, err := x.c.Issues(ctx, q, x.st.IssuesSince)
		if err != nil {
			return nil, "", err
		}
		if changed {
			x.res.Polls++
		}
		for _, is := range got {
			if is.PullRequest == nil && !slices.ContainsFunc(issues, func(o Issue) bool { return o.Number == is.Number }) {
				issues = append(issues, is)
			}
			if u := is.UpdatedAt.UTC().Format(time.RFC3339); u > newest {
				newest = u
			}
		}
	}
	return issues, newest, nil
}

// importOne makes or updates the task of is.
func (x *syncer) importOne(is Issue) error {
	t := x.bySource[is.URL]
	switch {
	case t == nil && is.State == "open":
		made, err := x.s.Create(x.newTask(is))
		if err != nil {
			return fmt.Errorf("github: issue #%d: %w", is.Number, err)
		}
		x.bySource[is.URL] = made
		x.res.Added = append(x.res.Added, made.ID)
	case t == nil:
	case is.State == "closed":
		return x.deferClosed(t, is)
	case t.Description != is.Body || t.Title != is.Title:
		return x.edited(t, is)
	}
	return nil
}

func (x *syncer) newTask(is Issue) *task.Task {
	t := &task.Task{Title: is.Title, Description: is.Body, Source: is.URL}
	for _, l := range is.Labels {
		t.Labels = append(t.Labels, l.Name)
		if p, ok := x.cfg.Priority[l.Name]; ok && t.Priority == "" {
			t.Priority, _ = task.ParsePriority(p)
		}
		if ty, ok := x.cfg.Type[l.Name]; ok && t.Type == "" {
			t.Type = task.Type(ty)
		}
	}
	return t
}

// edited follows an edit of the issue while the task has not run; once a
// run started it is shown, not applied (the agent works from what it read).
func (x *syncer) edited(t *task.Task, is Issue) error {
	started := slices.ContainsFunc(t.History, func(e task.Event) bool { return e.Kind == task.EventRunStarted })
	if started || t.State != task.Open {
		if key := fmt.Sprintf("edit:%s:%s", t.ID, is.UpdatedAt.UTC().Format(time.RFC3339)); !x.st.Noted[key] {
			x.st.Noted[key] = true
			x.res.Shown = append(x.res.Shown, t.ID)
			x.logf("%s: issue #%d was edited after its run started; the task keeps what the agent read (%s)", t.ID, is.Number, is.URL)
		}
		return nil
	}
	_, err := x.s.Update(t.ID, func(t *task.Task) error {
		t.Title, t.Description = is.Title, is.Body
		return nil
	})
	if err == nil {
		x.res.Updated = append(x.res.Updated, t.ID)
	}
	return err
}

// deferClosed defers the task of an issue closed before the task ended.
func (x *syncer) deferClosed(t *task.Task, is Issue) error {
	why := fmt.Sprintf("issue #%d was closed", is.Number)
	var err error
	switch {
	case t.Stoppable():
		_, _, err = act.Stop(x.s, t.ID, why, x.now(), x.by)
	case t.State == task.Open:
		_, err = act.Move(x.s, t.ID, task.Deferred, x.now(), x.by)
	default:
		return nil // in review, deferred, failed, closed: the issue closing changes nothing
	}
	if err == nil {
		x.res.Deferred = append(x.res.Deferred, t.ID)
	}
	return err
}

// syncer is one pass of Sync.
type syncer struct {
	s        *store.Store
	c        *Client
	st       *state
	cfg      config.GitHubConfig
	by       string
	logf     func(string, ...any)
	now      func() time.Time
	res      Result
	bySource map[string]*task.Task
	writers  map[string]bool // who may answer, as asked this pass
}
