package worker

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/slots"
)

// prTask is a store with the fake GitHub and one task that lands by pull
// request.
func prTask(t *testing.T, title string) (*store.Store, *GitHub, *task.Task) {
	t.Helper()
	s := newStore(t)
	gh := withGitHub(t, s)
	tk, err := s.Create(&task.Task{Title: title, Land: task.LandPR})
	if err != nil {
		t.Fatal(err)
	}
	return s, gh, tk
}

// withGitHub points the real gh at a fake GitHub and gives the store a
// bare remote, origin.
func withGitHub(t *testing.T, s *store.Store) *GitHub {
	fakeapi.Real(t, "gh")
	gh := NewGitHub(t)
	for _, kv := range GitHubEnv(t, gh) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	bare := t.TempDir()
	gitT(t, bare, "init", "-q", "--bare")
	gitT(t, s.Root, "remote", "add", "origin", bare)
	gitT(t, s.Root, "push", "-q", "origin", "HEAD")
	return gh
}

func shepherdT(t *testing.T, s *store.Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), fakeapi.Patience(time.Minute))
	defer cancel()
	if err := Shepherd(ctx, s, Options{}); err != nil {
		t.Fatal(err)
	}
}

func wantState(t *testing.T, s *store.Store, id string, want task.State) *task.Task {
	t.Helper()
	tk := getTask(t, s, id)
	if tk.State != want {
		t.Fatalf("%s is %s, want %s (summary %q, question %q)", id, tk.State, want, tk.Summary, tk.Question)
	}
	return tk
}

// A task with land: pr opens a pull request through the real gh, with its
// questions and answers in the body; a failed check and then a review
// comment go back to the same session, whose work is pushed to the same
// pull request; a second poll does nothing twice; the merge closes it.
func TestPullRequestShepherded(t *testing.T) {
	s, gh, tk := prTask(t, "Add greeting")
	bare := gitT(t, s.Root, "remote", "get-url", "origin")
	id, branch := tk.ID, slots.Branch(tk.ID)
	asks := agent.Result{Status: agent.StatusNeedsInput, Summary: "asks", Question: "Which greeting?"}
	f := &fake{steps: []stepFn{
		step(nil, asks),
		step(map[string]string{"hello.go": "package hello\n"}, done("adds the greeting")),
		step(map[string]string{"hello.go": "package hello\n\n// fixed\n"}, done("fixes the test")),
		step(map[string]string{"hello.go": "package hello\n\n// greeting\n"}, done("renames it")),
	}}
	runOnce(t, s, f)
	answer(t, s, id, "hello, world")
	runOnce(t, s, f)

	got := wantState(t, s, id, task.InReview)
	pulls := gh.Pulls()
	if len(pulls) != 1 || pulls[0].Head != branch || got.PullRequest() != "http://github.localhost/owner/repo/pull/1" {
		t.Fatalf("pulls %+v, task's PR %q", pulls, got.PullRequest())
	}
	for _, want := range []string{"adds the greeting", "Which greeting?", "hello, world", "bh-task: " + id} {
		if !strings.Contains(pulls[0].Body, want) {
			t.Errorf("PR body lacks %q:\n%s", want, pulls[0].Body)
		}
	}
	tip := gitT(t, s.Root, "rev-parse", branch)
	if pushed := gitT(t, bare, "rev-parse", branch); pushed != tip {
		t.Fatalf("remote %s at %s, local %s", branch, pushed, tip)
	}

	// CI fails on the head: the session is resumed with the job's log.
	gh.Edit(1, func(p *Pull) {
		p.SHA = tip
		p.Checks = []CheckRun{{ID: 11, Name: "test", Conclusion: "failure",
			Log: "ok  \tother\n--- FAIL: TestHello (0.00s)\n    hello_test.go:9: got \"\", want \"hello\"\n"}}
	})
	shepherdT(t, s)
	wantState(t, s, id, task.Open)
	runOnce(t, s, f)
	reqs := f.requests()
	if r := reqs[2]; !r.Resume || r.SessionID != reqs[0].SessionID ||
		!strings.Contains(r.Prompt, "--- FAIL: TestHello") || !strings.Contains(r.Prompt, `Check "test" failed`) {
		t.Fatalf("CI round: resume %v session %q (first %q), prompt:\n%s", r.Resume, r.SessionID, reqs[0].SessionID, r.Prompt)
	}
	wantState(t, s, id, task.InReview)
	tip2 := gitT(t, s.Root, "rev-parse", branch)
	if pushed := gitT(t, bare, "rev-parse", branch); pushed != tip2 || tip2 == tip {
		t.Fatalf("the fix was not pushed: remote %s, local %s, before %s", pushed, tip2, tip)
	}
	if !strings.Contains(gitT(t, bare, "show", branch+":hello.go"), "// fixed") {
		t.Fatal("the pushed branch lacks the fix")
	}

	// CI passes on the new head; a reviewer comments on a line.
	gh.Edit(1, func(p *Pull) {
		p.SHA = tip2
		p.Checks = []CheckRun{{ID: 12, Name: "test", Conclusion: "success"}}
		p.Comments = []ReviewComment{{ID: 21, Path: "hello.go", Line: 3, Body: "Call it greeting.", User: "rev"}}
	})
	shepherdT(t, s)
	wantState(t, s, id, task.Open)
	runOnce(t, s, f)
	if r := f.requests()[3]; !r.Resume || !strings.Contains(r.Prompt, "on hello.go line 3") ||
		!strings.Contains(r.Prompt, "Call it greeting.") || strings.Contains(r.Prompt, "TestHello") {
		t.Fatalf("review round's prompt:\n%s", r.Prompt)
	}
	wantState(t, s, id, task.InReview)
	shepherdT(t, s) // nothing new: the comment and the check were answered
	got = wantState(t, s, id, task.InReview)
	if n := count(got, task.EventFeedback); n != 2 || len(gh.Pulls()) != 1 {
		t.Fatalf("%d feedback rounds, %d pulls: want 2 and 1", n, len(gh.Pulls()))
	}

	gh.Edit(1, func(p *Pull) { p.Merged, p.State = true, "closed" })
	shepherdT(t, s)
	wantState(t, s, id, task.Closed)
	// Measured: two rounds of feedback, and the time from the opening to
	// the merge, which no later clock adds to.
	merged := getTask(t, s, id)
	opened := merged.History[slices.IndexFunc(merged.History, func(e task.Event) bool { return e.Kind == task.EventPR })]
	closed := merged.History[len(merged.History)-1]
	m := merged.Measure(time.Now().Add(time.Hour))
	if m.FeedbackRounds != 2 || closed.To != task.Closed || m.InReview != closed.At.Sub(opened.At) {
		t.Errorf("measures %+v: want 2 feedback rounds and the time in review up to the merge (%v to %v)", m, opened.At, closed.At)
	}
}

// A worker killed after gh opened the pull request and before the task
// recorded it: the next attempt finds the open pull request for the
// branch instead of opening a second one.
func TestPullRequestOpenedBeforeACrashIsFound(t *testing.T) {
	s, gh, tk := prTask(t, "Add greeting")
	// What the dead worker's gh pr create left on GitHub.
	var out bytes.Buffer
	res, err := proc.Run(context.Background(), proc.Cmd{Argv: []string{"gh", "pr", "create", "-R",
		GitHubHost + "/owner/repo", "--head", slots.Branch(tk.ID), "--base", "main", "--title", "t", "--body-file", "-"},
		Dir: s.Root, Stdin: strings.NewReader("body"), Stdout: &out, Stderr: &out})
	if err != nil || res.ExitCode != 0 {
		t.Fatal(err, res.ExitCode, out.String())
	}
	runOnce(t, s, &fake{steps: []stepFn{step(map[string]string{"hello.go": "package hello\n"}, done("adds it"))}})
	got := wantState(t, s, tk.ID, task.InReview)
	if pulls := gh.Pulls(); len(pulls) != 1 || got.PullRequest() != lastLine(out.String()) {
		t.Fatalf("%d pulls, task's PR %q, opened %q", len(pulls), got.PullRequest(), out.String())
	}
}

// The real Claude Code CLI: a failed check on its pull request resumes
// the same session, whose next request carries the job's log with the
// earlier turns, and its fix is pushed to the same pull request.
func TestClaudeFixesAFailedCheck(t *testing.T) {
	fakeapi.Real(t, "claude")
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		switch p := req.Prompt(); {
		case strings.Contains(p, "--- FAIL: TestHello") && len(req.ToolResults()) == 0:
			return fakeapi.Reply(fakeapi.Write("hello.go", "package hello\n\n// fixed\n"))
		case strings.Contains(p, "--- FAIL: TestHello"):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "fixed the test"}))
		case len(req.ToolResults()) == 0:
			return fakeapi.Reply(fakeapi.Write("hello.go", "package hello\n"))
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "adds hello"}))
	})
	s := newStore(t)
	gh := withGitHub(t, s)
	bare := gitT(t, s.Root, "remote", "get-url", "origin")
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	s.Config.Land = task.LandPR
	opt := Options{Env: fakeapi.Env(t, srv)}
	tk := addTask(t, s, "Say hello")
	runWith(t, s, opt)
	first := wantState(t, s, tk.ID, task.InReview)
	gh.Edit(1, func(p *Pull) {
		p.Checks = []CheckRun{{ID: 11, Name: "test", Conclusion: "failure",
			Log: "--- FAIL: TestHello (0.00s)\n    hello_test.go:9: no greeting\n"}}
	})
	shepherdT(t, s)
	runWith(t, s, opt)
	got := wantState(t, s, tk.ID, task.InReview)
	reqs := srv.Requests()
	resumed := reqs[2] // the first request of the resumed run
	if !strings.Contains(resumed.Prompt(), "hello_test.go:9: no greeting") || got.SessionID != first.SessionID {
		t.Fatalf("session %s -> %s; resumed request's prompt:\n%s", first.SessionID, got.SessionID, resumed.Prompt())
	}
	if calls := resumed.ToolUses(); len(calls) == 0 || calls[0].Name != "Write" {
		t.Errorf("the resumed request lacks the earlier turns: %+v", calls)
	}
	if !strings.Contains(gitT(t, bare, "show", slots.Branch(tk.ID)+":hello.go"), "// fixed") || len(gh.Pulls()) != 1 {
		t.Fatalf("the fix did not reach the one pull request (%d pulls)", len(gh.Pulls()))
	}
}
