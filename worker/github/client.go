package github

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/http/httpproxy"
)

// Client is the REST API of one repository, as one account (the token's).
type Client struct {
	Host, Owner, Repo string
	token             string
	base              string
	http              *http.Client
	// Cache holds the ETag and body of each GET that answered 200, so
	// that asking again costs nothing while nothing changed (a 304).
	Cache map[string]Cached
	// Limit is the rate limit as the last response told it.
	Limit RateLimit
}

// Cached is a GET's last full answer.
type Cached struct {
	ETag string          `json:"etag"`
	Body json.RawMessage `json:"body"`
}

// RateLimit is what the last response said of the token's budget.
type RateLimit struct {
	Remaining int       `json:"remaining"`
	Reset     time.Time `json:"reset"`
}

// apiTimeout bounds one request: GitHub answers in seconds.
const apiTimeout = time.Minute

// New is the client of repo ([HOST/]OWNER/REPO) with token.
func New(repo, token string) (*Client, error) {
	host, owner, name, err := ParseRepo(repo)
	if err != nil {
		return nil, err
	}
	// The proxy is read from the environment now, not once per process as
	// net/http's default does.
	proxy := httpproxy.FromEnvironment().ProxyFunc()
	tr := &http.Transport{Proxy: func(r *http.Request) (*url.URL, error) { return proxy(r.URL) }}
	return &Client{Host: host, Owner: owner, Repo: name, token: token, base: apiBase(host),
		http: &http.Client{Transport: tr, Timeout: apiTimeout}, Cache: map[string]Cached{}}, nil
}

// apiBase is where host's REST API answers: api.github.com for GitHub,
// http://api.github.localhost/ for the host gh itself speaks plain http to
// (tests), /api/v3 on an Enterprise server.
func apiBase(host string) string {
	switch {
	case host == "github.com":
		return "https://api.github.com/"
	case host == "github.localhost":
		return "http://api.github.localhost/"
	}
	return "https://" + host + "/api/v3/"
}

// ParseRepo reads [HOST/]OWNER/REPO, or a remote's URL (https, ssh, scp).
func ParseRepo(s string) (host, owner, repo string, err error) {
	parts := strings.Split(strings.Trim(bareURL(s), "/"), "/")
	switch {
	case len(parts) == 2 && parts[0] != "" && parts[1] != "":
		return "github.com", parts[0], parts[1], nil
	case len(parts) == 3 && parts[0] != "" && parts[1] != "" && parts[2] != "":
		return parts[0], parts[1], parts[2], nil
	}
	return "", "", "", fmt.Errorf("github: %q is no repository: want [HOST/]OWNER/REPO", s)
}

// bareURL is a remote's URL without its scheme, user and .git.
func bareURL(s string) string {
	u := strings.TrimSuffix(strings.TrimSpace(s), ".git")
	if rest, ok := strings.CutPrefix(u, "git@"); ok { // git@github.com:owner/repo
		u = strings.Replace(rest, ":", "/", 1)
	}
	for _, p := range []string{"https://", "http://", "ssh://git@", "ssh://"} {
		u = strings.TrimPrefix(u, p)
	}
	return u
}

// Slug is the repository as [HOST/]OWNER/REPO.
func (c *Client) Slug() string { return c.Host + "/" + c.Owner + "/" + c.Repo }

// Get reads path (below the repository when it does not start with /)
// into v, with the ETag of its last answer: unchanged (a 304) it is the
// cached body again, and changed reports false then.
func (c *Client) Get(ctx context.Context, path string, v any) (changed bool, err error) {
	path = c.path(path)
	old, had := c.Cache[path]
	resp, body, err := c.do(ctx, http.MethodGet, path, nil, old.ETag)
	if err != nil {
		return false, err
	}
	if resp.StatusCode == http.StatusNotModified && had {
		return false, json.Unmarshal(old.Body, v)
	}
	if et := resp.Header.Get("ETag"); et != "" {
		c.Cache[path] = Cached{ETag: et, Body: body}
	}
	return true, json.Unmarshal(body, v)
}

// Send sends in as JSON with method (POST, PATCH) to path, and reads the
// answer into out when it is not nil.
func (c *Client) Send(ctx context.Context, method, path string, in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	_, body, err := c.do(ctx, method, c.path(path), b, "")
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal(body, out)
}

func (c *Client) path(p string) string {
	if strings.HasPrefix(p, "/") {
		return p[1:]
	}
	return "repos/" + c.Owner + "/" + c.Repo + "/" + p
}

// do makes one request; an answer GitHub refused is an *APIError.
func (c *Client) do(ctx context.Context, method, path string, in []byte, etag string) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(in))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("Authorization", "Bearer "+c.token)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("github: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return nil, nil, fmt.Errorf("github: %s %s: %w", method, path, err)
	}
	c.noteLimit(resp.Header)
	if resp.StatusCode >= 400 {
		return nil, nil, c.refused(method, path, resp, body)
	}
	return resp, body, nil
}

// noteLimit keeps what h says of the rate limit.
func (c *Client) noteLimit(h http.Header) {
	if n, err := strconv.Atoi(h.Get("X-RateLimit-Remaining")); err == nil {
		c.Limit.Remaining = n
	}
	if n, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil {
		c.Limit.Reset = time.Unix(n, 0).UTC()
	}
}

// Token is the user's GitHub token for host: $GH_TOKEN (or $GITHUB_TOKEN),
// else what `gh auth token` says of gh's own login (run through gh, the
// given binary or gh on PATH).
func Token(ctx context.Context, gh, host string) (string, error) {
	if t := cmp.Or(os.Getenv("GH_TOKEN"), os.Getenv("GITHUB_TOKEN")); t != "" {
		return t, nil
	}
	out, err := runGH(ctx, gh, "auth", "token", "--hostname", host)
	if t := strings.TrimSpace(string(out)); err == nil && t != "" {
		return t, nil
	}
	return "", &NoLoginError{Host: host, Err: err}
}
