package github

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"time"
)

// Issue is an issue as the REST API gives it (pull requests come in the
// same list, with PullRequest set).
type Issue struct {
	Number      int       `json:"number"`
	Title       string    `json:"title"`
	Body        string    `json:"body"`
	State       string    `json:"state"` // open or closed
	URL         string    `json:"html_url"`
	UpdatedAt   time.Time `json:"updated_at"`
	Labels      []Label   `json:"labels"`
	Assignees   []User    `json:"assignees"`
	PullRequest *struct{} `json:"pull_request,omitempty"`
}

// Label is an issue's label.
type Label struct {
	Name string `json:"name"`
}

// Comment is a comment on an issue.
type Comment struct {
	ID        int64     `json:"id"`
	Body      string    `json:"body"`
	IssueURL  string    `json:"issue_url"` // the API's URL of its issue
	User      User      `json:"user"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// User is an account.
type User struct {
	Login string `json:"login"`
}

// Issues lists the issues of query (labels= or assignee=) updated since
// since ("" for the open ones), oldest change first; changed is false when
// GitHub answered 304.
func (c *Client) Issues(ctx context.Context, query url.Values, since string) (out []Issue, changed bool, err error) {
	q := url.Values{"sort": {"updated"}, "direction": {"asc"}, "per_page": {"100"}, "state": {"open"}}
	for k, v := range query {
		q[k] = v
	}
	if since != "" {
		q.Set("state", "all")
		q.Set("since", since)
	}
	changed, err = c.Get(ctx, "issues?"+q.Encode(), &out)
	return out, changed, err
}

// Comments lists the comments on every issue updated since since.
func (c *Client) Comments(ctx context.Context, since string) (out []Comment, changed bool, err error) {
	q := url.Values{"sort": {"updated"}, "direction": {"asc"}, "per_page": {"100"}}
	if since != "" {
		q.Set("since", since)
	}
	changed, err = c.Get(ctx, "issues/comments?"+q.Encode(), &out)
	return out, changed, err
}

// Comment posts body on issue n.
func (c *Client) Comment(ctx context.Context, n int, body string) (Comment, error) {
	var out Comment
	err := c.Send(ctx, "POST", fmt.Sprintf("issues/%d/comments", n), map[string]string{"body": body}, &out)
	return out, err
}

// Close closes issue n.
func (c *Client) Close(ctx context.Context, n int) error {
	return c.Send(ctx, "PATCH", fmt.Sprintf("issues/%d", n), map[string]string{"state": "closed"}, nil)
}

// CanWrite says whether login may push to the repository, as GitHub's
// permission endpoint says (admin, maintain and write may; triage, read
// and none may not): never from a name.
func (c *Client) CanWrite(ctx context.Context, login string) (bool, error) {
	var p struct {
		Permission string `json:"permission"`
	}
	if _, err := c.Get(ctx, "collaborators/"+url.PathEscape(login)+"/permission", &p); err != nil {
		if ae, ok := err.(*APIError); ok && ae.Status == 404 {
			return false, nil // not a collaborator
		}
		return false, err
	}
	return p.Permission == "admin" || p.Permission == "write", nil
}

// Self is the token's own login.
func (c *Client) Self(ctx context.Context) (string, error) {
	var u User
	_, err := c.Get(ctx, "/user", &u)
	return u.Login, err
}

var issueLink = regexp.MustCompile(`/issues/(\d+)$`)

// IssueNumber is the number of the issue a task's Source or a comment's
// issue_url links, 0 when it links none.
func IssueNumber(link string) int {
	m := issueLink.FindStringSubmatch(link)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
