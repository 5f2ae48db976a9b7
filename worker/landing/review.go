package landing

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
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

// Review is what one poll of a task's pull request found: merged,
// closed unmerged, or feedback not sent back yet (Text, its Keys, at
// the pull request's Head); nothing new when none is set.
type Review struct {
	URL            string
	Merged, Closed bool
	Text, Head     string
	Keys           []string
}

// Poll reads the state of t's pull request and the feedback on it that
// t's history has not recorded yet.
func (g GH) Poll(ctx context.Context, t *task.Task) (Review, error) {
	rv := Review{URL: t.PullRequest()}
	p, ok := parsePR(rv.URL)
	if !ok {
		return rv, fmt.Errorf("no pull request in its history (%q)", rv.URL)
	}
	var pull ghPull
	if err := g.api(ctx, p, fmt.Sprintf("pulls/%d", p.Number), &pull); err != nil {
		return rv, err
	}
	rv.Merged, rv.Closed, rv.Head = pull.Merged, !pull.Merged && pull.State == "closed", pull.Head.SHA
	if rv.Merged || rv.Closed {
		return rv, nil
	}
	var err error
	rv.Text, rv.Keys, err = g.feedback(ctx, p, pull, seenFeedback(t))
	return rv, err
}

// feedback gathers what is new on the pull request since the keys seen:
// each failed check run with its log's tail, each review comment with its
// file and line, a conflict with the base at this head.
func (g GH) feedback(ctx context.Context, p prRef, pull ghPull, seen map[string]bool) (string, []string, error) {
	var b strings.Builder
	var keys []string
	var checks ghChecks
	if err := g.api(ctx, p, "commits/"+pull.Head.SHA+"/check-runs", &checks); err != nil {
		return "", nil, err
	}
	for _, c := range checks.Runs {
		key := fmt.Sprintf("check:%d", c.ID)
		if seen[key] || !slices.Contains([]string{"failure", "timed_out", "cancelled"}, c.Conclusion) {
			continue
		}
		var log string
		if err := g.api(ctx, p, fmt.Sprintf("actions/jobs/%d/logs", c.ID), &log); err != nil {
			log = "(its log could not be read: " + err.Error() + ")"
		}
		fmt.Fprintf(&b, "### Check %q failed (%s)\nThe end of its log:\n```\n%s\n```\n\n", c.Name, c.Conclusion,
			strings.TrimSpace(tailString(log, logTail)))
		keys = append(keys, key)
	}
	var comments []ghComment
	if err := g.api(ctx, p, fmt.Sprintf("pulls/%d/comments", p.Number), &comments); err != nil {
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
