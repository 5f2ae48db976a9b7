package github

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent/proc"
)

// APIError is an answer GitHub refused.
type APIError struct {
	Method, Path string
	Status       int
	Message      string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("github: %s %s: %d %s", e.Method, e.Path, e.Status, e.Message)
}

// NoLoginError is no token for the host: neither GH_TOKEN nor gh's login.
type NoLoginError struct {
	Host string
	Err  error
}

func (e *NoLoginError) Error() string {
	why := ""
	if e.Err != nil {
		why = ": " + e.Err.Error()
	}
	return fmt.Sprintf("github: no login for %s%s (run gh auth login --hostname %s, or set GH_TOKEN)", e.Host, why, e.Host)
}

func (e *NoLoginError) Unwrap() error { return e.Err }

// ScopeError is a token GitHub refused for what it lacks.
type ScopeError struct {
	APIError
	Has, Needs string // the token's scopes and those the call accepts, as GitHub says them
}

func (e *ScopeError) Error() string {
	return fmt.Sprintf("%v (the token has scopes %q; this needs %q: run gh auth refresh -s repo)",
		&e.APIError, e.Has, cmp.Or(e.Needs, "repo"))
}

// NotVisibleError is a repository the token cannot see (GitHub answers
// 404 for a private one as for none).
type NotVisibleError struct{ Repo string }

func (e *NotVisibleError) Error() string {
	return fmt.Sprintf("github: repository %s not found, or not visible to this login (check github.repo: in .bh/config.yaml, and gh auth status)", e.Repo)
}

// RateLimitError is the token's rate limit, spent until Reset.
type RateLimitError struct{ Reset time.Time }

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("github: rate limit reached; paused until %s", e.Reset.UTC().Format(time.RFC3339))
}

// refused is the error of an answer with status >= 400.
func (c *Client) refused(method, path string, resp *http.Response, body []byte) error {
	var msg struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(body, &msg)
	e := APIError{Method: method, Path: path, Status: resp.StatusCode, Message: msg.Message}
	h := resp.Header
	if rl := c.rateLimited(resp); rl != nil {
		return rl
	}
	switch {
	case resp.StatusCode == 401:
		return &NoLoginError{Host: c.Host, Err: &e}
	case resp.StatusCode == 403 && h.Get("X-Accepted-OAuth-Scopes") != "":
		return &ScopeError{APIError: e, Has: h.Get("X-OAuth-Scopes"), Needs: h.Get("X-Accepted-OAuth-Scopes")}
	case resp.StatusCode == 404 && strings.HasPrefix(path, "repos/"+c.Owner+"/"+c.Repo+"/issues"):
		return &NotVisibleError{Repo: c.Slug()}
	}
	return &e
}

// rateLimited is the rate limit a 403 or 429 says is spent, nil for another.
func (c *Client) rateLimited(resp *http.Response) *RateLimitError {
	h := resp.Header
	if resp.StatusCode != 403 && resp.StatusCode != 429 || h.Get("X-RateLimit-Remaining") != "0" && h.Get("Retry-After") == "" {
		return nil
	}
	if d, err := time.ParseDuration(h.Get("Retry-After") + "s"); err == nil {
		return &RateLimitError{Reset: time.Now().Add(d)}
	}
	return &RateLimitError{Reset: c.Limit.Reset}
}

// ghTimeout bounds gh auth token.
const ghTimeout = 30 * time.Second

// runGH runs gh (gh on PATH when bin is "") through bh's process helper.
func runGH(ctx context.Context, bin string, args ...string) ([]byte, error) {
	var out, errOut bytes.Buffer
	res, err := proc.Run(ctx, proc.Cmd{Argv: append([]string{cmp.Or(bin, "gh")}, args...), Stdout: &out, Stderr: &errOut,
		Timeout: ghTimeout, Env: []string{"GH_PROMPT_DISABLED=1", "NO_COLOR=1", "GH_NO_UPDATE_NOTIFIER=1"}})
	if err == nil && res.ExitCode != 0 {
		err = errors.New(strings.TrimSpace(errOut.String()))
	}
	return out.Bytes(), err
}
