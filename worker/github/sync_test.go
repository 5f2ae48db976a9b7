package github_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/github"
	"github.com/bh-tracker/bh/worker/github/githubtest"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

// fakeRepo is a store and the fake API, with the environment that points
// at it (the token as GH_TOKEN: these tests run no gh).
func fakeRepo(t *testing.T) (*store.Store, *githubtest.API) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	api := githubtest.New(t)
	for _, kv := range githubtest.Env(t, api) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("GH_TOKEN", "fake-token")
	return storetest.New(t), api
}

func sync(t *testing.T, s *store.Store, cfg config.GitHubConfig) github.Result {
	t.Helper()
	res, err := github.Sync(context.Background(), s, cfg, github.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func tasks(t *testing.T, s *store.Store) []*task.Task {
	t.Helper()
	all, _, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

func TestImportOncePerIssue(t *testing.T) {
	s, api := fakeRepo(t)
	cfg := config.GitHubConfig{Priority: map[string]string{"urgent": "P0"}, Type: map[string]string{"documentation": "docs"},
		Assignee: "bh-bot"}
	one := api.AddIssue("Fix the login", "It fails on Sundays.", "bh", "urgent")
	api.AddIssue("Not for bh", "talk", "question")
	api.AddIssue("Write the guide", "Chapter one.", "bh", "documentation")
	mine := api.AddIssue("Assigned, not labelled", "For the bot.")
	api.EditIssue(mine, func(is *githubtest.Issue) { is.Assignee = "bh-bot" })
	for range 3 {
		sync(t, s, cfg)
	}
	all := tasks(t, s)
	if len(all) != 3 {
		t.Fatalf("%d tasks after three imports, want 3 (one per labelled or assigned issue)", len(all))
	}
	var login *task.Task
	for _, tk := range all {
		if tk.Title == "Fix the login" {
			login = tk
		}
	}
	for _, tk := range all {
		if tk.Title == "Write the guide" && tk.Type != "docs" {
			t.Errorf("the guide's type is %s, want docs (its label's)", tk.Type)
		}
	}
	if login == nil || login.Description != "It fails on Sundays." || login.Priority != "P0" ||
		!strings.HasSuffix(login.Source, "/owner/repo/issues/1") {
		t.Fatalf("imported task: %+v", login)
	}
	// An edit while the task never ran follows the issue.
	api.EditIssue(one, func(is *githubtest.Issue) { is.Body = "It fails on Sundays and Mondays." })
	if res := sync(t, s, cfg); len(res.Updated) != 1 {
		t.Fatalf("edit: %+v", res)
	}
	if got, _ := s.Get(login.ID); got.Description != "It fails on Sundays and Mondays." {
		t.Fatalf("description after the edit: %q", got.Description)
	}
	// Once a run started, an edit is shown, not applied.
	if _, err := s.Update(login.ID, func(tk *task.Task) error {
		tk.Record(time.Now(), task.Event{Kind: task.EventRunStarted})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	api.EditIssue(one, func(is *githubtest.Issue) { is.Body = "Rewritten." })
	if res := sync(t, s, cfg); len(res.Shown) != 1 || len(res.Updated) != 0 {
		t.Fatalf("edit after a run started: %+v", res)
	}
	if got, _ := s.Get(login.ID); got.Description == "Rewritten." {
		t.Fatal("an edit after the run started was applied")
	}
	// A closed issue defers its task.
	api.EditIssue(one, func(is *githubtest.Issue) { is.State = "closed" })
	sync(t, s, cfg)
	if got, _ := s.Get(login.ID); got.State != task.Deferred {
		t.Fatalf("task of a closed issue is %s, want deferred", got.State)
	}
	if n := len(tasks(t, s)); n != 3 {
		t.Fatalf("%d tasks at the end, want 3", n)
	}
}

// asked is a store with one task imported from issue 1, waiting on a
// choice, its question posted on the issue.
func asked(t *testing.T) (*store.Store, *githubtest.API, string) {
	s, api := fakeRepo(t)
	api.AddIssue("Pick a database", "We need one.", "bh")
	sync(t, s, config.GitHubConfig{})
	id := tasks(t, s)[0].ID
	at := time.Now().UTC()
	if _, err := s.Update(id, func(tk *task.Task) error {
		tk.Summary = "Two fit."
		tk.Questions = []task.Question{{ID: "q1", Question: "Which database?", Type: task.ChoiceQuestion,
			Options: []task.Option{{Label: "PostgreSQL"}, {Label: "SQLite", Description: "one file"}},
			Status:  task.QuestionPending, AskedAt: at}}
		tk.State = task.AwaitingInput // as a run that asked leaves it
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if res := sync(t, s, config.GitHubConfig{}); len(res.Asked) != 1 {
		t.Fatalf("asked: %+v", res)
	}
	return s, api, id
}

func TestQuestionIsOneComment(t *testing.T) {
	s, api, _ := asked(t)
	sync(t, s, config.GitHubConfig{})
	bodies := api.Bodies(1)
	if len(bodies) != 1 {
		t.Fatalf("%d comments on the issue after two syncs, want 1: %q", len(bodies), bodies)
	}
	for _, want := range []string{"Which database?", "1. PostgreSQL", "2. SQLite — one file", "Two fit.", "/bh 2"} {
		if !strings.Contains(bodies[0], want) {
			t.Errorf("the question comment lacks %q:\n%s", want, bodies[0])
		}
	}
}

func TestReplyByCollaboratorAnswers(t *testing.T) {
	s, api, id := asked(t)
	api.SetPerm("reader", "read")
	api.AddComment(1, "reader", "/bh 1")             // no write access
	api.AddComment(1, "stranger", "/bh 1")           // no access at all
	api.AddComment(1, githubtest.Bot, "/bh 1")       // bh's own account
	api.AddComment(1, "dev", "I think SQLite, but…") // talk, not an answer
	res := sync(t, s, config.GitHubConfig{})
	if got, _ := s.Get(id); got.State != task.AwaitingInput || len(res.Answered) != 0 {
		t.Fatalf("replies without write access answered: %s, %+v", got.State, res)
	}
	api.SetPerm("dev", "write")
	c := api.AddComment(1, "dev", "/bh 2")
	sync(t, s, config.GitHubConfig{})
	got, _ := s.Get(id)
	if got.State != task.Open || got.Questions[0].Answer[0] != "SQLite" {
		t.Fatalf("after /bh 2 by a collaborator: %s, %+v", got.State, got.Questions[0])
	}
	if e := got.History[len(got.History)-1]; e.By != "github:dev" {
		t.Errorf("answered by %q, want github:dev", e.By)
	}
	// An edit of the answer, and a late reply, change nothing; the late one is told.
	api.EditComment(c.ID, "/bh 1")
	api.AddComment(1, "dev", "/bh 1")
	sync(t, s, config.GitHubConfig{})
	if got, _ := s.Get(id); got.Questions[0].Answer[0] != "SQLite" {
		t.Fatalf("a later reply changed the answer: %+v", got.Questions[0])
	}
	bodies := api.Bodies(1)
	if last := bodies[len(bodies)-1]; !strings.Contains(last, `answered already ("SQLite")`) || !strings.Contains(last, "dev (github)") {
		t.Errorf("the late reply was not told: %q", last)
	}
	if strings.Count(strings.Join(bodies, "\n"), "answered already") != 1 {
		t.Errorf("the edit was answered as a reply too: %q", bodies)
	}
}

func TestAnswerElsewhereIsNoted(t *testing.T) {
	s, api, id := asked(t)
	if _, _, err := s.Answer(id, []task.Answer{{Values: []string{"PostgreSQL"}}}, "human"); err != nil {
		t.Fatal(err)
	}
	sync(t, s, config.GitHubConfig{})
	sync(t, s, config.GitHubConfig{})
	bodies := api.Bodies(1)
	if len(bodies) != 2 || !strings.Contains(bodies[1], "Answered by you") || !strings.Contains(bodies[1], "PostgreSQL") {
		t.Fatalf("the answer given with bh respond was not noted once: %q", bodies)
	}
}

// TestQuietPollsCostNothing: 1,000 polls of a repository where nothing
// changes are all 304s, which cost none of the rate limit.
func TestQuietPollsCostNothing(t *testing.T) {
	s, api := fakeRepo(t)
	api.AddIssue("Fix the login", "body", "bh")
	sync(t, s, config.GitHubConfig{})
	sync(t, s, config.GitHubConfig{}) // the first poll from the newest change seen
	spent, _ := api.Costs()
	for range 1000 {
		if res := sync(t, s, config.GitHubConfig{}); res.Polls != 0 {
			t.Fatalf("a quiet poll found something: %+v", res)
		}
	}
	after, notModified := api.Costs()
	if after != spent || notModified < 2000 {
		t.Fatalf("1,000 quiet polls spent %d of the rate limit (%d answered 304), want 0", after-spent, notModified)
	}
}

// TestWebhookAnswers: a signed issue_comment webhook answers before its
// request returns; a badly signed one is refused and changes nothing.
func TestWebhookAnswers(t *testing.T) {
	s, api, id := asked(t)
	cfgFile := s.ConfigPath()
	b, err := os.ReadFile(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgFile, append(b, "github:\n  label: bh\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	api.SetPerm("dev", "write")
	hook := httptest.NewServer(github.Webhook{Secret: "s3cret", Repos: func() ([]string, error) { return []string{s.Root}, nil }})
	defer hook.Close()
	c := api.AddComment(1, "dev", "/bh 2")
	payload, _ := json.Marshal(map[string]any{"action": "created",
		"issue": map[string]any{"number": 1, "html_url": "http://github.localhost/owner/repo/issues/1"},
		"comment": map[string]any{"id": c.ID, "body": c.Body, "user": map[string]any{"login": "dev"},
			"issue_url":  "http://api.github.localhost/repos/owner/repo/issues/1",
			"created_at": c.CreatedAt.Format(time.RFC3339), "updated_at": c.UpdatedAt.Format(time.RFC3339)},
		"repository": map[string]any{"full_name": "owner/repo", "html_url": "http://github.localhost/owner/repo"}})
	post := func(sig string) int {
		req, _ := http.NewRequest("POST", hook.URL, bytes.NewReader(payload))
		req.Header.Set("X-GitHub-Event", "issue_comment")
		req.Header.Set("X-Hub-Signature-256", sig)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	bad := hmac.New(sha256.New, []byte("guess"))
	bad.Write(payload)
	if code := post("sha256=" + hex.EncodeToString(bad.Sum(nil))); code != http.StatusUnauthorized {
		t.Fatalf("a badly signed webhook answered %d, want 401", code)
	}
	if got, _ := s.Get(id); got.State != task.AwaitingInput {
		t.Fatalf("a badly signed webhook changed the task: %s", got.State)
	}
	mac := hmac.New(sha256.New, []byte("s3cret"))
	mac.Write(payload)
	if code := post("sha256=" + hex.EncodeToString(mac.Sum(nil))); code != http.StatusNoContent {
		t.Fatalf("a signed webhook answered %d, want 204", code)
	}
	if got, _ := s.Get(id); got.State != task.Open || got.Questions[0].Answer[0] != "SQLite" {
		t.Fatalf("when the signed webhook's request returned: %s %+v", got.State, got.Questions)
	}
	// The poll that follows sees the same comment, and takes it no second time.
	sync(t, s, config.GitHubConfig{})
	for _, body := range api.Bodies(1) {
		if strings.Contains(body, "answered already") {
			t.Errorf("the poll after the webhook took the comment again: %q", body)
		}
	}
}

// TestIssueToldHowItEnded: a task landed by merge comments its commit on
// the issue and closes it (close: true); a failed one says so; each once.
func TestIssueToldHowItEnded(t *testing.T) {
	s, api := fakeRepo(t)
	api.AddIssue("Fix the login", "body", "bh")
	api.AddIssue("Fix the logout", "body", "bh")
	cfg := config.GitHubConfig{Close: true}
	sync(t, s, cfg)
	byTitle := map[string]string{}
	for _, tk := range tasks(t, s) {
		byTitle[tk.Title] = tk.ID
	}
	end := func(id string, st task.State, commit string) {
		if _, err := s.Update(id, func(tk *task.Task) error {
			if commit != "" {
				tk.Record(time.Now(), task.Event{Kind: task.EventCommit, Commit: commit})
			}
			tk.State, tk.Summary = st, "the tests would not pass"
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	end(byTitle["Fix the login"], task.Closed, "abc1234")
	end(byTitle["Fix the logout"], task.Failed, "")
	sync(t, s, cfg)
	sync(t, s, cfg)
	if b := api.Bodies(1); len(b) != 1 || !strings.Contains(b[0], "abc1234") || api.Issue(1).State != "closed" {
		t.Fatalf("landed: %q, issue %s", b, api.Issue(1).State)
	}
	if b := api.Bodies(2); len(b) != 1 || !strings.Contains(b[0], "failed: the tests would not pass") || api.Issue(2).State != "open" {
		t.Fatalf("failed: %q, issue %s", b, api.Issue(2).State)
	}
}

// TestRateLimitPauses: a spent rate limit is a *RateLimitError, and no
// request is made until its reset.
func TestRateLimitPauses(t *testing.T) {
	s, api := fakeRepo(t)
	api.AddIssue("Fix the login", "body", "bh")
	api.Limit = 0 // no request yet: set without the lock
	_, err := github.Sync(context.Background(), s, config.GitHubConfig{}, github.Options{
		Now: func() time.Time { return time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC) }})
	var rl *github.RateLimitError
	if !errors.As(err, &rl) || rl.Reset.IsZero() {
		t.Fatalf("a spent rate limit: %v", err)
	}
	before := api.Requests()
	_, err = github.Sync(context.Background(), s, config.GitHubConfig{}, github.Options{
		Now: func() time.Time { return time.Date(2026, 1, 5, 9, 1, 0, 0, time.UTC) }})
	if after := api.Requests(); !errors.As(err, &rl) || after != before {
		t.Fatalf("before the reset: %v, %d requests", err, after-before)
	}
}

func TestNoLogin(t *testing.T) {
	s, _ := fakeRepo(t)
	t.Setenv("GH_TOKEN", "")
	t.Setenv("PATH", t.TempDir()) // no gh either
	_, err := github.Sync(context.Background(), s, config.GitHubConfig{}, github.Options{})
	var nl *github.NoLoginError
	if !errors.As(err, &nl) || !strings.Contains(err.Error(), "gh auth login") {
		t.Fatalf("without a login: %v", err)
	}
}

// A repository the token cannot see, and a token without the scope to
// comment, are said as such.
func TestNotVisibleAndScopes(t *testing.T) {
	s, api := fakeRepo(t)
	_, err := github.Sync(context.Background(), s, config.GitHubConfig{Repo: "github.localhost/owner/secret"}, github.Options{})
	var nv *github.NotVisibleError
	if !errors.As(err, &nv) || !strings.Contains(err.Error(), "not visible") {
		t.Fatalf("another repository: %v", err)
	}
	api.AddIssue("Pick a database", "We need one.", "bh")
	sync(t, s, config.GitHubConfig{})
	id := tasks(t, s)[0].ID
	if _, err := s.Update(id, func(tk *task.Task) error {
		tk.Questions = []task.Question{{ID: "q1", Question: "Which?", Type: task.FreeformQuestion, Status: task.QuestionPending}}
		tk.State = task.AwaitingInput
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	api.ReadOnly = true // between requests: no lock needed
	_, err = github.Sync(context.Background(), s, config.GitHubConfig{}, github.Options{})
	var se *github.ScopeError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "gh auth refresh -s repo") {
		t.Fatalf("a token without the scope: %v", err)
	}
}
