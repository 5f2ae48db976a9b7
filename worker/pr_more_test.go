package worker

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/agent/proc/proctest"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/slots"
)

// The base moved on the remote and conflicts with the pull request: the
// same session is told, then resolves the rebase bh starts on the
// remote's base, and the resolved branch, on top of it, is pushed.
func TestPullRequestConflictWithBase(t *testing.T) {
	s, gh, tk := prTask(t, "Greet")
	bare := gitT(t, s.Root, "remote", "get-url", "origin")
	target := gitT(t, s.Root, "rev-parse", "--abbrev-ref", "HEAD")
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
	gh.Edit(1, func(p *Pull) { p.Conflict = true })

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
	branch := slots.Branch(tk.ID)
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
	s, gh, tk := prTask(t, "Greet")
	var steps []stepFn
	for i := range 3 {
		steps = append(steps, step(map[string]string{"hello.txt": strings.Repeat("hello\n", i+1)}, done("round")))
	}
	f := &fake{steps: steps}
	runOnce(t, s, f)
	opt := Options{ReviewRounds: 1}
	for i, want := range []task.State{task.Open, task.AwaitingInput} {
		gh.Edit(1, func(p *Pull) {
			p.Comments = append(p.Comments, ReviewComment{ID: int64(30 + i), Path: "hello.txt", Line: 1,
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
	gh.Edit(1, func(p *Pull) { p.State = "closed" })
	if err := Shepherd(context.Background(), s, opt); err != nil {
		t.Fatal(err)
	}
	q = pendingOf(t, wantState(t, s, tk.ID, task.AwaitingInput))
	if !strings.Contains(q.Question, "closed without being merged") {
		t.Fatalf("question %q", q.Question)
	}
}

// The running worker polls pull requests in review on its tick: a merge
// closes the task while the worker waits.
func TestWorkerPollsPullRequests(t *testing.T) {
	s, gh, tk := prTask(t, "Greet")
	f := &fake{steps: []stepFn{step(map[string]string{"hello.txt": "hello\n"}, done("greets"))}}
	runOnce(t, s, f)
	wantState(t, s, tk.ID, task.InReview)
	gh.Edit(1, func(p *Pull) { p.Merged, p.State = true, "closed" })
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
	t.Parallel()
	s := newStore(t)
	s.Config.Land = task.LandPR
	err := Run(context.Background(), context.Background(), s, Options{Runner: &fake{}, Once: true,
		GH: filepath.Join(t.TempDir(), "no-gh")})
	var pe *PreflightError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "land: pr needs the GitHub CLI") {
		t.Fatalf("err %v", err)
	}
}

// Another machine opened the pull request: this clone has no branch
// bh/<id>, only the task file with its URL. Feedback brings the branch
// from the remote, and the fix goes on top of the work already there.
func TestPullRequestShepherdedFromAnotherClone(t *testing.T) {
	s, gh, tk := prTask(t, "Greet")
	bare := gitT(t, s.Root, "remote", "get-url", "origin")
	f := &fake{steps: []stepFn{
		step(map[string]string{"hello.txt": "hello\n"}, done("greets")),
		step(map[string]string{"fix.txt": "fixed\n"}, done("fixes")),
	}}
	runOnce(t, s, f)
	wantState(t, s, tk.ID, task.InReview)
	gitT(t, s.Root, "branch", "-D", slots.Branch(tk.ID)) // as on a clone that never had it
	gh.Edit(1, func(p *Pull) {
		p.Checks = []CheckRun{{ID: 11, Name: "test", Conclusion: "failure", Log: "boom\n"}}
	})
	shepherdT(t, s)
	runOnce(t, s, f)
	wantState(t, s, tk.ID, task.InReview)
	files := lines(gitT(t, bare, "ls-tree", "--name-only", slots.Branch(tk.ID)))
	if !strings.Contains(strings.Join(files, " "), "fix.txt") || !strings.Contains(strings.Join(files, " "), "hello.txt") {
		t.Fatalf("pushed branch holds %v, want the first round's work and the fix", files)
	}
}
