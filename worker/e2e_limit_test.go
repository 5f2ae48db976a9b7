package worker

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/act"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

// The real Claude Code CLI against an API whose five-hour window runs out
// mid-run (a 429 with the unified rate-limit headers and retry-after): the
// run stops with its partial work and session kept, the worker starts no
// run before the reset the API gave (its clock moved on by the test), and
// then resumes the same session, whose request carries the first run's
// history, and the task lands. claude reports the reset (rate_limit_event)
// to a subscription login, not to an API key: the run logs in with a token.
func TestClaudeUsageLimitPausesUntilTheResetAndResumesTheSession(t *testing.T) {
	t.Parallel()
	reset := time.Now().Add(time.Hour).Truncate(time.Second)
	var mu sync.Mutex
	var srv *fakeapi.Server
	resumed := false
	srv = fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		mu.Lock()
		defer mu.Unlock()
		if len(req.ToolUses()) == 0 {
			srv.Exhaust(reset, 1) // the window runs out after this answer
			return fakeapi.Reply(fakeapi.Write("half.txt", "half\n"))
		}
		resumed = true // the resumed session carries the Write of the first run
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "finished half.txt"}))
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	tk := addTask(t, s, "Write half, then the rest")
	c := &limitClock{now: time.Now().UTC()}
	var held Event
	evs := runLimited(t, s, Options{Now: c.Now, Once: true, Env: append(fakeapi.Env(t, srv), "ANTHROPIC_API_KEY=", "CLAUDE_CODE_OAUTH_TOKEN=test-oauth-token")}, func(e Event, _ func()) {
		t.Logf("event %s %s %s", e.Kind, e.Summary, e.Elapsed)
		switch {
		case e.Kind == Paused && strings.HasPrefix(e.Summary, "paused by the") && held.Kind == "":
			held = e // told as claude streamed it
		case e.Kind == Finished && held.Kind != "" && c.Now().Before(reset):
			c.set(reset.Add(time.Second)) // the run is over: the window resets
		}
	})
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed || !resumed || count(got, task.EventLimitPaused) != 1 {
		t.Fatalf("%s, resumed %v, %d limit.paused; events %+v", got.State, resumed, count(got, task.EventLimitPaused), evs)
	}
	if !strings.Contains(held.Summary, "usage limit until") || held.Elapsed <= 0 {
		t.Errorf("the pause: %+v", held)
	}
	for _, e := range evs {
		if e.Kind == Paused && strings.Contains(e.Summary, "new runs wait") {
			t.Errorf("a backoff although the API gave the reset: %s", e.Summary)
		}
	}
}

// The same with two clones sharing a remote and limits.autoResume false:
// clone B, of the same account, asks the API nothing before the reset nor
// after it, until a human resumes (bh worker --resume); then it runs.
func TestClaudeUsageLimitHoldsTheOtherCloneUntilResumed(t *testing.T) {
	t.Parallel()
	reset := time.Now().Add(time.Hour).Truncate(time.Second)
	var srv *fakeapi.Server
	srv = fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		if len(req.ToolUses()) == 0 && !strings.Contains(req.Prompt(), "On B") {
			srv.Exhaust(reset, 1)
			return fakeapi.Reply(fakeapi.Write("half.txt", "half\n"))
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "done"}))
	})
	env := append(fakeapi.Env(t, srv), "ANTHROPIC_API_KEY=", "CLAUDE_CODE_OAUTH_TOKEN=test-oauth-token")
	off := false
	a := newStore(t)
	bare := withRemote(t, a)
	a.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	a.Config.Limits.AutoResume = &off
	addTask(t, a, "On A: write half, then the rest")
	c := &limitClock{now: time.Now().UTC()}
	runLimited(t, a, Options{Now: c.Now, Env: env}, func(e Event, stop func()) {
		if e.Kind == Finished {
			stop() // cut short by the limit: A holds
		}
	})
	asked := len(srv.Requests())

	dir := t.TempDir()
	gitT(t, dir, "clone", "-q", bare, ".")
	b, err := store.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	b.Config.Remote, b.Config.Agent, b.Config.Limits.AutoResume = "origin", a.Config.Agent, &off
	tk := addTask(t, b, "On B: wait for the human")
	c.set(reset.Add(time.Minute)) // past the reset: still held, autoResume being off
	var told string
	runLimited(t, b, Options{Now: c.Now, Env: env, Once: true}, func(e Event, stop func()) {
		t.Logf("B: %s %s %s", e.Kind, e.Task, e.Summary)
		switch {
		case e.Kind == Paused && strings.Contains(e.Summary, "bh worker --resume"):
			told = e.Summary
			if n := len(srv.Requests()); n != asked {
				t.Errorf("clone B asked the API %d times before --resume", n-asked)
			}
			if err := act.Resume(b); err != nil {
				t.Error(err)
			}
		case e.Kind == Started && told == "":
			t.Errorf("clone B started %s before --resume", e.Task)
		}
	})
	if got := getTask(t, b, tk.ID); got.State != task.Closed || told == "" {
		t.Fatalf("clone B's task %s; told %q", got.State, told)
	}
}
