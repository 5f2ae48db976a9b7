package worker

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/agent/proc/proctest"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/github"
	"github.com/bh-tracker/bh/worker/github/githubtest"
)

// A task imported from an issue lands by pull request through the real
// gh: its body says Closes #N, so that merging it closes the issue, and
// the issue is told how the task landed.
func TestPullRequestClosesItsIssue(t *testing.T) {
	s, gh, tk := prTask(t, "Add greeting")
	api := githubtest.New(t)
	gh.Issues = api // no request yet: set without the lock
	n := api.AddIssue("Add greeting", "Say hello.", "bh")
	if _, err := s.Update(tk.ID, func(t *task.Task) error {
		t.Source = fmt.Sprintf("http://%s/owner/repo/issues/%d", githubtest.Host, n)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	runOnce(t, s, &fake{steps: []stepFn{step(map[string]string{"hello.go": "package hello\n"}, done("adds it"))}})
	wantState(t, s, tk.ID, task.InReview)
	pull := gh.Pulls()[0]
	if !strings.Contains(pull.Body, fmt.Sprintf("Closes #%d", n)) {
		t.Fatalf("the pull request's body does not close the issue:\n%s", pull.Body)
	}
	gh.Edit(1, func(p *Pull) { p.Merged, p.State = true, "closed" })
	api.Merged(pull.Body)
	shepherdT(t, s)
	wantState(t, s, tk.ID, task.Closed)
	if _, err := github.Sync(context.Background(), s, config.GitHubConfig{}, github.Options{}); err != nil {
		t.Fatal(err)
	}
	if is := api.Issue(n); is.State != "closed" {
		t.Fatalf("issue #%d is %s after its pull request merged", n, is.State)
	}
	if bodies := api.Bodies(n); len(bodies) != 1 || !strings.Contains(bodies[0], "landed through its pull request") {
		t.Fatalf("the issue was not told how its task landed: %q", bodies)
	}
}

// The running worker polls the config's issues on its beat: a labelled
// issue becomes a task, the task runs and lands, and the issue is told
// its commit and closed (close: true), the token from the real gh's login.
func TestWorkerTakesIssues(t *testing.T) {
	fakeapi.Real(t, "gh")
	s := newStore(t)
	api := githubtest.New(t)
	for _, kv := range githubtest.Env(t, api) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	s.Config.GitHub = &config.GitHubConfig{Close: true}
	n := api.AddIssue("Greet", "Say hello in hello.txt.", "bh")
	f := &fake{steps: []stepFn{step(map[string]string{"hello.txt": "hello\n"}, done("greets"))}}
	stop, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := make(chan error, 1)
	go func() {
		ended <- Run(stop, stop, s, Options{Runner: f, Tick: 10 * time.Millisecond, ReviewPoll: time.Millisecond,
			Report: func(e Event) {
				if e.Kind == Warning {
					t.Logf("worker: %s", e.Summary)
				}
			}})
	}()
	proctest.WaitFor(t, fakeapi.Patience(time.Minute), "the issue closed with its task's commit", func() bool {
		return api.Issue(n).State == "closed"
	})
	cancel()
	if err := <-ended; err != nil {
		t.Fatal(err)
	}
	all, _, _ := s.List()
	if len(all) != 1 || all[0].State != task.Closed {
		t.Fatalf("tasks: %+v", all)
	}
	landed := gitT(t, s.Root, "log", "-1", "--format=%H", "--grep=^bh-task: "+all[0].ID+"$")
	if b := api.Bodies(n); len(b) != 1 || landed == "" || !strings.Contains(b[0], "landed as "+landed[:12]) {
		t.Fatalf("the issue's comments: %q", b)
	}
}
