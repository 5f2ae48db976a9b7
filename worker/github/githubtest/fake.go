// Package githubtest is a fake GitHub REST API for the issues bh reads and
// writes (worker/github): issues, their comments, a collaborator's
// permission and the token's own account. It models what costs: every
// answer but a 304 spends one of the rate limit, each list answers with an
// ETag, and a request whose If-None-Match matches gets a 304. bh and the
// real gh reach it as the host github.localhost through HTTP_PROXY (see
// Env), as the pull-request fake in package worker is reached.
package githubtest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Host is the host the fake repository owner/repo lives on.
const Host = "github.localhost"

// Bot is the login of the token bh uses: its own comments are its.
const Bot = "bh-bot"

// API is the fake.
type API struct {
	URL string
	t   testing.TB
	mu  sync.Mutex
	// Issues and Comments as the repository has them; Perms is each
	// login's permission (admin, write, read; none when absent).
	issues   []*Issue
	comments []*Comment
	Perms    map[string]string
	// Limit is the rate limit left; Spent counts the answers that cost
	// one, NotModified the 304s.
	Limit, Spent, NotModified int
	requests                  int
	// ReadOnly plays a token with read scopes only: writes are refused
	// for the scope they need.
	ReadOnly bool
	clock    time.Time
}

// Issue is an issue of the repository.
type Issue struct {
	Number             int
	Title, Body, State string
	Labels             []string
	Assignee           string
	UpdatedAt          time.Time
}

// Comment is a comment on an issue.
type Comment struct {
	ID                   int64
	Issue                int
	User, Body           string
	CreatedAt, UpdatedAt time.Time
}

// New starts the fake until the test ends, with a rate limit of 5,000.
func New(t testing.TB) *API {
	a := &API{t: t, Perms: map[string]string{Bot: "write"}, Limit: 5000,
		clock: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)}
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	a.URL = srv.URL
	return a
}

// Env points bh and gh at the fake: the proxy, and gh's own login for
// github.localhost in a config directory of the test's own (no GH_TOKEN,
// so that bh asks gh auth token).
func Env(t testing.TB, a *API) []string {
	dir := filepath.Join(t.TempDir(), "gh")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	hosts := Host + ":\n    oauth_token: fake-token\n    user: " + Bot + "\n    git_protocol: https\n"
	if err := os.WriteFile(filepath.Join(dir, "hosts.yml"), []byte(hosts), 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{"HTTP_PROXY=" + a.URL, "http_proxy=" + a.URL, "NO_PROXY=127.0.0.1", "no_proxy=127.0.0.1",
		"GH_TOKEN=", "GITHUB_TOKEN=", "GH_CONFIG_DIR=" + dir, "GH_REPO=" + Host + "/owner/repo", "GH_PROMPT_DISABLED=1"}
}

// tick is the fake's clock: one second per change, so that since= and
// edits order as they happen.
func (a *API) tick() time.Time {
	a.clock = a.clock.Add(time.Second)
	return a.clock
}

// AddIssue opens an issue and returns its number.
func (a *API) AddIssue(title, body string, labels ...string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	is := &Issue{Number: len(a.issues) + 1, Title: title, Body: body, State: "open", Labels: labels, UpdatedAt: a.tick()}
	a.issues = append(a.issues, is)
	return is.Number
}

// EditIssue changes issue n.
func (a *API) EditIssue(n int, f func(*Issue)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	f(a.issues[n-1])
	a.issues[n-1].UpdatedAt = a.tick()
}

// Issue is a copy of issue n.
func (a *API) Issue(n int) Issue {
	a.mu.Lock()
	defer a.mu.Unlock()
	return *a.issues[n-1]
}

// AddComment comments on issue n as user.
func (a *API) AddComment(n int, user, body string) *Comment {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.addComment(n, user, body)
}

func (a *API) addComment(n int, user, body string) *Comment {
	now := a.tick()
	c := &Comment{ID: int64(1000 + len(a.comments)), Issue: n, User: user, Body: body, CreatedAt: now, UpdatedAt: now}
	a.comments = append(a.comments, c)
	a.issues[n-1].UpdatedAt = now
	return c
}

// EditComment changes comment id's words.
func (a *API) EditComment(id int64, body string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, c := range a.comments {
		if c.ID == id {
			c.Body, c.UpdatedAt = body, a.tick()
		}
	}
}

// Comments are the comments on issue n, oldest first.
func (a *API) Comments(n int) []Comment {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []Comment
	for _, c := range a.comments {
		if c.Issue == n {
			out = append(out, *c)
		}
	}
	return out
}

// Costs are the rate limit's spent answers and the 304s so far.
func (a *API) Costs() (spent, notModified int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.Spent, a.NotModified
}

// Requests counts every request made, refused ones too.
func (a *API) Requests() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.requests
}

// SetPerm sets login's permission on the repository.
func (a *API) SetPerm(login, perm string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.Perms[login] = perm
}

var route = regexp.MustCompile(`^/repos/owner/repo/(issues|issues/comments|issues/(\d+)|issues/(\d+)/comments|collaborators/([^/]+)/permission)$`)

// ServeHTTP answers one request: the fake's own server, or another fake
// passing on what it does not serve.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	a.requests++
	if !a.admit(w, r) {
		return
	}
	m := route.FindStringSubmatch(r.URL.Path)
	if m == nil {
		a.t.Errorf("fake GitHub: unexpected %s %s", r.Method, r.URL)
		a.answer(w, r, 404, map[string]any{"message": "Not Found"})
		return
	}
	switch {
	case m[1] == "issues" && r.Method == http.MethodGet:
		a.answer(w, r, 200, a.listIssues(r))
	case m[1] == "issues/comments" && r.Method == http.MethodGet:
		a.answer(w, r, 200, a.listComments(r))
	case m[4] != "":
		a.permission(w, r, m[4])
	default:
		a.write(w, r, m)
	}
}

// write closes an issue (PATCH) or comments on one (POST), as bh.
func (a *API) write(w http.ResponseWriter, r *http.Request, m []string) {
	var in struct{ State, Body string }
	json.NewDecoder(r.Body).Decode(&in)
	switch {
	case m[2] != "" && r.Method == http.MethodPatch:
		n, _ := strconv.Atoi(m[2])
		a.issues[n-1].State, a.issues[n-1].UpdatedAt = in.State, a.tick()
		a.answer(w, r, 200, a.issueJSON(a.issues[n-1]))
	case m[3] != "" && r.Method == http.MethodPost:
		n, _ := strconv.Atoi(m[3])
		a.answer(w, r, 201, a.commentJSON(a.addComment(n, Bot, in.Body)))
	default:
		a.t.Errorf("fake GitHub: unexpected %s %s", r.Method, r.URL)
		a.answer(w, r, 404, map[string]any{"message": "Not Found"})
	}
}

// permission answers login's permission on the repository.
func (a *API) permission(w http.ResponseWriter, r *http.Request, login string) {
	perm, ok := a.Perms[login]
	if !ok {
		a.answer(w, r, 404, map[string]any{"message": "Not Found"})
		return
	}
	a.answer(w, r, 200, map[string]any{"permission": perm, "user": map[string]any{"login": login}})
}

// admit refuses a bad token and a spent rate limit, and answers /user.
func (a *API) admit(w http.ResponseWriter, r *http.Request) bool {
	switch {
	case r.Header.Get("Authorization") != "Bearer fake-token":
		a.answer(w, r, 401, map[string]any{"message": "Bad credentials"})
	case a.Limit <= 0:
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(a.clock.Add(time.Hour).Unix(), 10))
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"message":"API rate limit exceeded"}`)
	case r.URL.Path == "/user":
		a.answer(w, r, 200, map[string]any{"login": Bot})
	case !strings.HasPrefix(r.URL.Path, "/repos/owner/repo/"):
		a.answer(w, r, 404, map[string]any{"message": "Not Found"}) // another repository: not visible
	case a.ReadOnly && r.Method != http.MethodGet:
		w.Header().Set("X-OAuth-Scopes", "read:org")
		w.Header().Set("X-Accepted-OAuth-Scopes", "repo")
		a.answer(w, r, 403, map[string]any{"message": "Resource not accessible by integration"})
	default:
		return true
	}
	return false
}

// answer writes v with its ETag, or 304 when the client has it: only a
// full answer costs one of the rate limit, as GitHub's does.
func (a *API) answer(w http.ResponseWriter, r *http.Request, status int, v any) {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	if r.Method == http.MethodGet && status == 200 && r.Header.Get("If-None-Match") == etag {
		a.NotModified++
		w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(a.Limit))
		w.WriteHeader(http.StatusNotModified)
		return
	}
	a.Limit--
	a.Spent++
	w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(a.Limit))
	w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(a.clock.Add(time.Hour).Unix(), 10))
	w.WriteHeader(status)
	w.Write(b)
}

func (a *API) listIssues(r *http.Request) []map[string]any {
	q := r.URL.Query()
	since, _ := time.Parse(time.RFC3339, q.Get("since"))
	out := []map[string]any{}
	for _, is := range a.issues {
		switch {
		case q.Get("state") != "all" && is.State != "open":
		case q.Get("labels") != "" && !slices.Contains(is.Labels, q.Get("labels")):
		case q.Get("assignee") != "" && is.Assignee != q.Get("assignee"):
		case is.UpdatedAt.Before(since):
		default:
			out = append(out, a.issueJSON(is))
		}
	}
	return out
}

func (a *API) listComments(r *http.Request) []map[string]any {
	since, _ := time.Parse(time.RFC3339, r.URL.Query().Get("since"))
	out := []map[string]any{}
	sorted := slices.Clone(a.comments)
	slices.SortStableFunc(sorted, func(x, y *Comment) int { return x.UpdatedAt.Compare(y.UpdatedAt) })
	for _, c := range sorted {
		if !c.UpdatedAt.Before(since) {
			out = append(out, a.commentJSON(c))
		}
	}
	return out
}

func (a *API) issueJSON(is *Issue) map[string]any {
	labels := []map[string]any{}
	for _, l := range is.Labels {
		labels = append(labels, map[string]any{"name": l})
	}
	return map[string]any{"number": is.Number, "title": is.Title, "body": is.Body, "state": is.State,
		"html_url": fmt.Sprintf("http://%s/owner/repo/issues/%d", Host, is.Number), "labels": labels,
		"updated_at": is.UpdatedAt.Format(time.RFC3339)}
}

func (a *API) commentJSON(c *Comment) map[string]any {
	return map[string]any{"id": c.ID, "body": c.Body, "user": map[string]any{"login": c.User},
		"issue_url":  fmt.Sprintf("http://api.%s/repos/owner/repo/issues/%d", Host, c.Issue),
		"created_at": c.CreatedAt.Format(time.RFC3339), "updated_at": c.UpdatedAt.Format(time.RFC3339)}
}

var closes = regexp.MustCompile(`(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?) #(\d+)\b`)

// Merged is GitHub merging a pull request with body: the issues it names
// with a closing keyword (Closes #N) close.
func (a *API) Merged(body string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, m := range closes.FindAllStringSubmatch(body, -1) {
		if n, _ := strconv.Atoi(m[1]); n >= 1 && n <= len(a.issues) {
			a.issues[n-1].State, a.issues[n-1].UpdatedAt = "closed", a.tick()
		}
	}
}

// Bodies are the words of issue n's comments, oldest first.
func (a *API) Bodies(n int) []string {
	var out []string
	for _, c := range a.Comments(n) {
		out = append(out, strings.TrimSpace(c.Body))
	}
	return out
}
