package worker

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/agent/proc/proctest"
	"github.com/bh-tracker/bh/task"
)

// withGitHub points the real gh at a fake GitHub and gives the store a
// bare remote, origin.
func withGitHub(t *testing.T, s *task.Store) *fakeapi.GitHub {
	fakeapi.Real(t, "gh")
	gh := fakeapi.NewGitHub(t)
	for _, kv := range fakeapi.GitHubEnv(t, gh) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	bare := t.TempDir()
	gitT(t, bare, "init", "-q", "--bare")
	gitT(t, s.Root, "remote", "add", "origin", bare)
	gitT(t, s.Root, "push", "-q", "origin", "HEAD")
	return gh
}

func shepherdT(t *testing.T, s *task.Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), fakeapi.Patience(time.Minute))
	defer cancel()
	if err := Shepherd(ctx, s, Options{}); err != nil {
		t.Fatal(err)
	}
}

func wantState(t *testing.T, s *task.Store, id string, want task.State) *task.Task {
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
	s := newStore(t)
	gh := withGitHub(t, s)
	bare := gitT(t, s.Root, "remote", "get-url", "origin")
	tk, err := s.Create(&task.Task{Title: "Add greeting", Land: task.LandPR})
	if err != nil {
		t.Fatal(err)
	}
	id, branch := tk.ID, Branch(tk.ID)
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
	if len(pulls) != 1 || pulls[0].Head != branch || prOf(got) != "http://github.localhost/owner/repo/pull/1" {
		t.Fatalf("pulls %+v, task's PR %q", pulls, prOf(got))
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
	gh.Edit(1, func(p *fakeapi.Pull) {
		p.SHA = tip
		p.Checks = []fakeapi.CheckRun{{ID: 11, Name: "test", Conclusion: "failure",
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
	gh.Edit(1, func(p *fakeapi.Pull) {
		p.SHA = tip2
		p.Checks = []fakeapi.CheckRun{{ID: 12, Name: "test", Conclusion: "success"}}
		p.Comments = []fakeapi.ReviewComment{{ID: 21, Path: "hello.go", Line: 3, Body: "Call it greeting.", User: "rev"}}
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

	gh.Edit(1, func(p *fakeapi.Pull) { p.Merged, p.State = true, "closed" })
	shepherdT(t, s)
	wantState(t, s, id, task.Closed)
}

// A worker killed after gh opened the pull request and before the task
// recorded it: the next attempt finds the open pull request for the
// branch instead of opening a second one.
func TestPullRequestOpenedBeforeACrashIsFound(t *testing.T) {
	s := newStore(t)
	gh := withGitHub(t, s)
	tk, err := s.Create(&task.Task{Title: "Add greeting", Land: task.LandPR})
	if err != nil {
		t.Fatal(err)
	}
	// What the dead worker's gh pr create left on GitHub.
	out, err := (&worker{s: s, opt: Options{GH: "gh"}}).gh(context.Background(), "body", "pr", "create", "-R",
		fakeapi.GitHubHost+"/owner/repo", "--head", Branch(tk.ID), "--base", "main", "--title", "t", "--body-file", "-")
	if err != nil {
		t.Fatal(err)
	}
	runOnce(t, s, &fake{steps: []stepFn{step(map[string]string{"hello.go": "package hello\n"}, done("adds it"))}})
	got := wantState(t, s, tk.ID, task.InReview)
	if pulls := gh.Pulls(); len(pulls) != 1 || prOf(got) != lastLine(string(out)) {
		t.Fatalf("%d pulls, task's PR %q, opened %q", len(pulls), prOf(got), out)
	}
}

// The base moved on the remote and conflicts with the pull request: the
// same session is told, then resolves the rebase bh starts on the
// remote's base, and the resolved branch, on top of it, is pushed.
func TestPullRequestConflictWithBase(t *testing.T) {
	s := newStore(t)
	gh := withGitHub(t, s)
	bare := gitT(t, s.Root, "remote", "get-url", "origin")
	target := gitT(t, s.Root, "rev-parse", "--abbrev-ref", "HEAD")
	tk, err := s.Create(&task.Task{Title: "Greet", Land: task.LandPR})
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{steps: []stepFn{
		step(map[string]string{"hello.txt": "hello\n"}, done("greets")),
		step(nil, done("nothing to change; rebase me")),
		step(map[string]string{"hello.txt": "hello and hi\n"}, done("merged both greetings")),
	}}
	runOnce(t, s, f)
	wantState(t, s, tk.ID, task.InReview)

	// Someone else lands a greeting of their own on the remote's base.
	other := t.TempDir()
	gitT(t, other, "clone", "-q", bare, ".")
	gitT(t, other, "checkout", "-q", target)
	writeFile(t, other, "hello.txt", "hi\n")
	gitT(t, other, "add", "hello.txt")
	gitT(t, other, "-c", "user.name=o", "-c", "user.email=o@x", "commit", "-q", "-m", "hi")
	gitT(t, other, "push", "-q", "origin", target)
	moved := gitT(t, other, "rev-parse", "HEAD")
	gh.Edit(1, func(p *fakeapi.Pull) { p.Conflict = true })

	shepherdT(t, s)
	wantState(t, s, tk.ID, task.Open)
	runOnce(t, s, f) // told of the conflict; its completion meets it in the rebase
	if r := f.requests()[1]; !strings.Contains(r.Prompt, "A conflict with "+target) {
		t.Fatalf("conflict round's prompt:\n%s", r.Prompt)
	}
	if got := getTask(t, s, tk.ID); got.State != task.Open || len(f.requests()) != 3 {
		runOnce(t, s, f) // the rebase's conflict goes back to the same session
	}
	reqs := f.requests()
	if len(reqs) != 3 || !strings.Contains(reqs[2].Prompt, "conflicts with "+target) || reqs[2].SessionID != reqs[0].SessionID {
		t.Fatalf("%d runs; last prompt:\n%s", len(reqs), reqs[len(reqs)-1].Prompt)
	}
	wantState(t, s, tk.ID, task.InReview)
	branch := Branch(tk.ID)
	if got := gitT(t, bare, "show", branch+":hello.txt"); got != "hello and hi" {
		t.Fatalf("pushed hello.txt %q", got)
	}
	if parent := gitT(t, bare, "rev-parse", branch+"^"); parent != moved {
		t.Fatalf("pushed branch's parent %s, want the remote's base %s", parent, moved)
	}
	if len(gh.Pulls()) != 1 {
		t.Fatalf("%d pulls", len(gh.Pulls()))
	}
}

// Feedback past the rounds allowed, and a pull request closed unmerged,
// go to the human as a question; the answer resumes the session.
func TestPullRequestEscalates(t *testing.T) {
	s := newStore(t)
	gh := withGitHub(t, s)
	tk, err := s.Create(&task.Task{Title: "Greet", Land: task.LandPR})
	if err != nil {
		t.Fatal(err)
	}
	var steps []stepFn
	for i := range 3 {
		steps = append(steps, step(map[string]string{"hello.txt": strings.Repeat("hello\n", i+1)}, done("round")))
	}
	f := &fake{steps: steps}
	runOnce(t, s, f)
	opt := Options{ReviewRounds: 1}
	for i, want := range []task.State{task.Open, task.AwaitingInput} {
		gh.Edit(1, func(p *fakeapi.Pull) {
			p.Comments = append(p.Comments, fakeapi.ReviewComment{ID: int64(30 + i), Path: "hello.txt", Line: 1,
				Body: "again", User: "rev"})
		})
		if err := Shepherd(context.Background(), s, opt); err != nil {
			t.Fatal(err)
		}
		wantState(t, s, tk.ID, want)
		if want == task.Open {
			runOnce(t, s, f)
		}
	}
	q := pendingOf(t, getTask(t, s, tk.ID))
	if !strings.Contains(q.Question, "rounds of feedback") {
		t.Fatalf("question %q", q.Question)
	}
	answer(t, s, tk.ID, "leave the name as it is")
	runOnce(t, s, f)
	if r := f.requests()[2]; !strings.Contains(r.Prompt, "leave the name as it is") {
		t.Fatalf("guidance round's prompt:\n%s", r.Prompt)
	}
	wantState(t, s, tk.ID, task.InReview)
	gh.Edit(1, func(p *fakeapi.Pull) { p.State = "closed" })
	if err := Shepherd(context.Background(), s, opt); err != nil {
		t.Fatal(err)
	}
	q = pendingOf(t, wantState(t, s, tk.ID, task.AwaitingInput))
	if !strings.Contains(q.Question, "closed without being merged") {
		t.Fatalf("question %q", q.Question)
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
	s.Config.Agent = task.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	s.Config.Land = task.LandPR
	opt := Options{Env: fakeapi.Env(t, srv)}
	tk := addTask(t, s, "Say hello")
	runWith(t, s, opt)
	first := wantState(t, s, tk.ID, task.InReview)
	gh.Edit(1, func(p *fakeapi.Pull) {
		p.Checks = []fakeapi.CheckRun{{ID: 11, Name: "test", Conclusion: "failure",
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
	if !strings.Contains(gitT(t, bare, "show", Branch(tk.ID)+":hello.go"), "// fixed") || len(gh.Pulls()) != 1 {
		t.Fatalf("the fix did not reach the one pull request (%d pulls)", len(gh.Pulls()))
	}
}

// The running worker polls pull requests in review on its tick: a merge
// closes the task while the worker waits.
func TestWorkerPollsPullRequests(t *testing.T) {
	s := newStore(t)
	gh := withGitHub(t, s)
	tk, err := s.Create(&task.Task{Title: "Greet", Land: task.LandPR})
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{steps: []stepFn{step(map[string]string{"hello.txt": "hello\n"}, done("greets"))}}
	runOnce(t, s, f)
	wantState(t, s, tk.ID, task.InReview)
	gh.Edit(1, func(p *fakeapi.Pull) { p.Merged, p.State = true, "closed" })
	stop, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := make(chan error, 1)
	go func() {
		ended <- Run(stop, stop, s, Options{Runner: f, Tick: 10 * time.Millisecond, ReviewPoll: time.Millisecond})
	}()
	proctest.WaitFor(t, fakeapi.Patience(time.Minute), "the merged pull request's task closed", func() bool {
		got, err := s.Get(tk.ID)
		return err == nil && got.State == task.Closed
	})
	cancel()
	if err := <-ended; err != nil {
		t.Fatal(err)
	}
}

// Without gh, a worker with pull requests to open refuses to start.
func TestPreflightWantsGH(t *testing.T) {
	s := newStore(t)
	s.Config.Land = task.LandPR
	err := Run(context.Background(), context.Background(), s, Options{Runner: &fake{}, Once: true,
		GH: filepath.Join(t.TempDir(), "no-gh")})
	var pe *PreflightError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "land: pr needs the GitHub CLI") {
		t.Fatalf("err %v", err)
	}
}
