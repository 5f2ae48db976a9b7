package worker

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bh-tracker/bh/worker/github/githubtest"
)

// GitHub is a fake GitHub API for the real gh CLI (Debian's gh 2.23),
// serving just what bh calls: `gh pr list` and `gh pr create` (GraphQL),
// and through `gh api` a pull request, its check runs, a job's log and
// its review comments (REST). gh reaches it as the host github.localhost,
// which gh speaks plain http to (http://api.github.localhost/), through
// HTTP_PROXY pointing here: see GitHubEnv.
type GitHub struct {
	URL   string
	mu    sync.Mutex
	pulls []*Pull
	t     testing.TB
	// mergeWhen and check play the reviewer and CI: see PlayCI.
	mergeWhen func(*Pull) bool
	check     func(*Pull) []CheckRun
	// Issues, if set, serves what this fake does not (issues, comments).
	Issues *githubtest.API
}

// PlayCI makes the server play CI and a reviewer: check, if not nil, gives
// the check runs of a pull request as it is now (in place of its Checks);
// mergeWhen, if not nil, merges an open pull request once it says so, when
// the pull request is read (a reviewer pressing the button). Set under the
// server's lock: gh may be asking already.
func (g *GitHub) PlayCI(check func(*Pull) []CheckRun, mergeWhen func(*Pull) bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.check, g.mergeWhen = check, mergeWhen
}

// GitHubHost is the host bh's pull requests live on in tests.
const GitHubHost = "github.localhost"

// Pull is one pull request of the fake repository owner/repo; tests set
// its fields to play CI, reviewers and the merge button.
type Pull struct {
	Number           int
	Head, Base, Body string
	Title            string
	SHA              string // the head commit CI ran on; tests set it
	State            string // open or closed
	Merged           bool
	Conflict         bool
	Checks           []CheckRun
	Comments         []ReviewComment
}

// CheckRun is a check on the pull request's head; a failed one has a log.
type CheckRun struct {
	ID               int64
	Name, Conclusion string
	Log              string
}

// ReviewComment is a reviewer's comment on a line of a file.
type ReviewComment struct {
	ID         int64
	Path, Body string
	Line       int
	User       string
}

// NewGitHub starts the fake until the test ends.
func NewGitHub(t testing.TB) *GitHub {
	g := &GitHub{t: t}
	srv := httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(srv.Close)
	g.URL = srv.URL
	return g
}

// GitHubEnv is the environment that points gh at g, with a token and a
// config directory of the test's own; GH_REPO names the repository pull
// requests are opened on.
func GitHubEnv(t testing.TB, g *GitHub) []string {
	if _, err := exec.LookPath("gh"); err != nil {
		t.Fatalf("gh is not installed (apt-get install gh): %v", err)
	}
	return []string{"HTTP_PROXY=" + g.URL, "http_proxy=" + g.URL, "NO_PROXY=127.0.0.1", "no_proxy=127.0.0.1", // the fake model APIs are not behind it
		"GH_TOKEN=fake-token", "GH_CONFIG_DIR=" + filepath.Join(t.TempDir(), "gh"),
		"GH_REPO=" + GitHubHost + "/owner/repo", "GH_PROMPT_DISABLED=1"}
}

// Pulls is a snapshot of the pull requests opened so far.
func (g *GitHub) Pulls() []Pull {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]Pull, len(g.pulls))
	for i, p := range g.pulls {
		out[i] = *p
	}
	return out
}

// Edit changes pull request n under the lock.
func (g *GitHub) Edit(n int, f func(*Pull)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	f(g.pulls[n-1])
}

var restPath = regexp.MustCompile(`^/repos/owner/repo/(pulls/(\d+)(/comments)?|commits/([^/]+)/check-runs|actions/jobs/(\d+)/logs)$`)

func (g *GitHub) serve(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path == "/graphql" {
		g.graphql(w, r)
		return
	}
	m := restPath.FindStringSubmatch(r.URL.Path)
	if m == nil && g.Issues != nil {
		g.Issues.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodGet || m == nil {
		g.t.Errorf("fake GitHub: unexpected %s %s", r.Method, r.URL)
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return
	}
	switch {
	case m[2] != "":
		g.servePull(w, g.pull(m[2]), m[3] != "")
	case m[4] != "":
		g.serveCheckRuns(w, m[4])
	case m[5] != "":
		id, _ := strconv.ParseInt(m[5], 10, 64)
		g.serveJobLog(w, id)
	}
}

// servePull answers a pull request, or its review comments; reading an open
// one merges it when mergeWhen says so.
func (g *GitHub) servePull(w http.ResponseWriter, p *Pull, comments bool) {
	if p != nil && !comments && p.State == "open" && g.mergeWhen != nil && g.mergeWhen(p) {
		p.Merged, p.State = true, "closed"
	}
	if p == nil {
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return
	}
	if comments {
		out := []map[string]any{}
		for _, c := range p.Comments {
			out = append(out, map[string]any{"id": c.ID, "path": c.Path, "line": c.Line, "body": c.Body,
				"user": map[string]any{"login": c.User}})
		}
		json.NewEncoder(w).Encode(out)
		return
	}
	state := map[bool]string{true: "dirty", false: "clean"}[p.Conflict]
	json.NewEncoder(w).Encode(map[string]any{"number": p.Number, "state": p.State, "merged": p.Merged,
		"mergeable": !p.Conflict, "mergeable_state": state, "head": map[string]any{"sha": p.SHA, "ref": p.Head},
		"base": map[string]any{"ref": p.Base}})
}

// serveCheckRuns answers the check runs of the pull requests at commit sha.
func (g *GitHub) serveCheckRuns(w http.ResponseWriter, sha string) {
	runs := []map[string]any{}
	for _, p := range g.pulls {
		if p.SHA == sha {
			for _, c := range g.checks(p) {
				runs = append(runs, map[string]any{"id": c.ID, "name": c.Name, "status": "completed",
					"conclusion": c.Conclusion})
			}
		}
	}
	json.NewEncoder(w).Encode(map[string]any{"total_count": len(runs), "check_runs": runs})
}

// serveJobLog answers the log of check run id.
func (g *GitHub) serveJobLog(w http.ResponseWriter, id int64) {
	for _, p := range g.pulls {
		for _, c := range g.checks(p) {
			if c.ID == id {
				w.Header().Set("Content-Type", "text/plain")
				io.WriteString(w, c.Log)
				return
			}
		}
	}
	http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
}

func (g *GitHub) checks(p *Pull) []CheckRun {
	if g.check != nil {
		return g.check(p)
	}
	return p.Checks
}

func (g *GitHub) pull(n string) *Pull {
	i, _ := strconv.Atoi(n)
	if i < 1 || i > len(g.pulls) {
		return nil
	}
	return g.pulls[i-1]
}

func (g *GitHub) pullURL(p *Pull) string {
	return fmt.Sprintf("http://%s/owner/repo/pull/%d", GitHubHost, p.Number)
}

// graphql answers gh's queries by their operation.
func (g *GitHub) graphql(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Query     string         `json:"query"`
		Variables map[string]any `json:"variables"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	op := "?"
	if m := regexp.MustCompile(`(query|mutation) (\w+)`).FindStringSubmatch(req.Query); m != nil {
		op = m[2]
	}
	repo := map[string]any{"id": "R_1", "name": "repo", "owner": map[string]any{"login": "owner"},
		"hasIssuesEnabled": true, "viewerPermission": "WRITE", "defaultBranchRef": map[string]any{"name": "main"},
		"mergeCommitAllowed": true, "rebaseMergeAllowed": true, "squashMergeAllowed": true}
	data := map[string]any{}
	switch op {
	case "RepositoryInfo":
		data["repository"] = repo
	case "PullRequestList", "PullRequestForBranch":
		head, _ := req.Variables["headBranch"].(string)
		nodes := []map[string]any{}
		for _, p := range g.pulls {
			if p.Head == head && p.State == "open" {
				nodes = append(nodes, map[string]any{"number": p.Number, "url": g.pullURL(p), "state": "OPEN",
					"headRefName": p.Head, "baseRefName": p.Base, "title": p.Title, "isCrossRepository": false,
					"headRepositoryOwner": map[string]any{"login": "owner"}})
			}
		}
		prs := map[string]any{"totalCount": len(nodes), "nodes": nodes,
			"pageInfo": map[string]any{"hasNextPage": false, "endCursor": ""}}
		data["repository"] = map[string]any{"pullRequests": prs}
	case "PullRequestCreate":
		in, _ := req.Variables["input"].(map[string]any)
		str := func(k string) string { s, _ := in[k].(string); return s }
		p := &Pull{Number: len(g.pulls) + 1, Head: str("headRefName"), Base: str("baseRefName"), Title: str("title"),
			Body: str("body"), State: "open"}
		p.SHA = fmt.Sprintf("%040x", p.Number) // until a test says which commit CI ran on
		g.pulls = append(g.pulls, p)
		data["createPullRequest"] = map[string]any{"pullRequest": map[string]any{"id": "PR_" + strconv.Itoa(p.Number),
			"number": p.Number, "url": g.pullURL(p)}}
	default:
		g.t.Errorf("fake GitHub: unexpected GraphQL %s: %s", op, strings.TrimSpace(req.Query))
	}
	json.NewEncoder(w).Encode(map[string]any{"data": data})
}
