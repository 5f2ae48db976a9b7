package worker

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/jail"
)

// The real Claude Code CLI against a fake API that reports a huge usage
// for its second reply: the run is stopped as its cost crosses the task's
// budget, the question names the spend, a yes resumes the same session
// (its next request carries the first run's tool call) and the task
// lands; then the day's budget, crossed, keeps the next task from
// starting.
func TestClaudeBudgetStopsAsksAndResumes(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var resumed []*fakeapi.Request
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		again := strings.Contains(req.Prompt(), "Continue with")
		switch {
		case again && len(req.ToolResults()) == 0:
			mu.Lock()
			resumed = append(resumed, req)
			mu.Unlock()
			return fakeapi.Turn{Parts: []fakeapi.Part{fakeapi.Write("rest.txt", "rest\n")}, Tokens: 2}
		case again:
			return fakeapi.Turn{Parts: []fakeapi.Part{fakeapi.StructuredOutput(map[string]any{"status": "completed",
				"summary": "wrote wip.txt and rest.txt"})}, Tokens: 2}
		case len(req.ToolResults()) == 0:
			return fakeapi.Turn{Parts: []fakeapi.Part{fakeapi.Write("wip.txt", "wip\n")}, Tokens: 2}
		case len(req.ToolUses()) == 1: // ten million tokens: dollars, whatever the model's price
			return fakeapi.Turn{Parts: []fakeapi.Part{fakeapi.Write("more.txt", "more\n")}, Tokens: 10_000_000}
		}
		return fakeapi.Hang() // had the budget not stopped it
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	s.Config.Budget.PerTask = 1
	opt := Options{Env: fakeapi.Env(t, srv)}
	tk := addTask(t, s, "Spend freely")
	evs := runWith(t, s, opt)
	got := getTask(t, s, tk.ID)
	if got.State != task.AwaitingInput {
		t.Fatalf("%s: %s (%+v)", got.State, got.Summary, finishedEvents(evs))
	}
	q, parked := pendingOf(t, got), got
	crossed, _ := lastEvent(got, task.EventBudgetCrossed)
	if !strings.HasPrefix(q.Question, "This task has spent "+ending.USD(crossed.CostUSD)+" of its $1.00 budget.") ||
		!strings.HasSuffix(q.Question, "Continue with $1.00 more?") || crossed.CostUSD <= 1 {
		t.Fatalf("question %q, crossed %+v", q.Question, crossed)
	}
	if run, _ := lastEvent(got, task.EventRunFinished); run.CostUSD < crossed.CostUSD || run.Tokens < 1_000_000 {
		t.Errorf("the run's cost in the history: %+v", run)
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"yes"}}}, "alice"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, opt)
	got = getTask(t, s, tk.ID)
	if got.State != task.Closed || got.Budget != crossed.CostUSD+1 {
		t.Fatalf("%s: %s, budget %v", got.State, got.Summary, got.Budget)
	}
	mu.Lock()
	// Resumed: the same session, and the request carries the first run's
	// conversation: its prompt, and such of its tool calls as claude had
	// saved when it was stopped (none, one or both: it varies with the load).
	if _, lost := lastEvent(got, task.EventSessionLost); lost || got.SessionID != parked.SessionID {
		t.Fatalf("the yes did not resume session %s: now %s (lost: %v)", parked.SessionID, got.SessionID, lost)
	}
	if len(resumed) != 1 || !strings.HasPrefix(resumed[0].UserTexts()[0], "You are a coding agent") {
		t.Fatalf("the yes did not resume the session: %d requests", len(resumed))
	}
	mu.Unlock()
	if c := committed(t, s.Root, "HEAD"); !strings.Contains(strings.Join(c, " "), "rest.txt") {
		t.Errorf("landed: %v", c)
	}

	// The day's runs cost more than perDay: the next task waits.
	s.Config.Budget.PerDay = 1
	next := addTask(t, s, "Spend more")
	calls := len(srv.Requests())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var paused string
	opt.Once, opt.Report = true, func(e Event) {
		if e.Kind == Paused {
			paused = e.Summary
			cancel()
		}
	}
	if err := Run(ctx, ctx, s, opt); err != nil {
		t.Fatal(err)
	}
	if st := getTask(t, s, next.ID).State; st != task.Open || len(srv.Requests()) != calls ||
		!strings.HasPrefix(paused, "the day's budget: ") {
		t.Fatalf("next task %s after %d requests; paused %q", st, len(srv.Requests())-calls, paused)
	}
}

// firstReplyOverBudget is a fake API whose first reply writes wip.txt at
// a cost past parkedOverBudget's budget (100,000 tokens, some $0.90: a
// turn of millions, saved in the session before claude is stopped, as
// it is under load, makes the resumed claude compact its conversation
// first, which the fake does not answer); after the human's yes, it
// writes rest.txt and completes.
func firstReplyOverBudget(t *testing.T) *fakeapi.Server {
	return fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		again := strings.Contains(req.Prompt(), "Continue with")
		switch {
		case again && len(req.ToolResults()) == 0:
			return fakeapi.Turn{Parts: []fakeapi.Part{fakeapi.Write("rest.txt", "rest\n")}, Tokens: 2}
		case again:
			return fakeapi.Turn{Parts: []fakeapi.Part{fakeapi.StructuredOutput(map[string]any{"status": "completed",
				"summary": "wrote rest.txt"})}, Tokens: 2}
		case len(req.ToolResults()) == 0:
			return fakeapi.Turn{Parts: []fakeapi.Part{fakeapi.Write("wip.txt", "wip\n")}, Tokens: 100_000}
		}
		return fakeapi.Hang() // had the budget not stopped it
	})
}

// A budget crossed by the run's first reply, before claude's session has
// more than the prompt: the yes resumes that session, or, when claude
// was stopped before it could save a session it can load again, a fresh
// one with the story; either way the task lands with the work.
func TestClaudeBudgetCrossedOnTheFirstReply(t *testing.T) {
	t.Parallel()
	s, tk, opt := parkedOverBudget(t)
	runWith(t, s, opt)
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("%s: %s", got.State, got.Summary)
	}
}

// A session claude cannot load (what it leaves when killed in its first
// request: "No conversation found"): the run starts a fresh session with
// the task, the questions and answers and the work so far, records the
// loss, and lands.
func TestClaudeUnloadableSessionStartsAfresh(t *testing.T) {
	t.Parallel()
	s, tk, opt := parkedOverBudget(t)
	parked := getTask(t, s, tk.ID)
	// Both transcripts, the agent's own and bh's copy, as claude can't load them.
	states := jail.AgentStateDir(s.Root, gitT(t, s.Root, "rev-parse", "--path-format=absolute", "--git-common-dir"), tk.ID, "claude")
	for _, dir := range []string{states, filepath.Dir(sessionCopy(s, tk.ID, parked.SessionID))} {
		err := filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
			if err == nil && filepath.Base(path) == parked.SessionID+".jsonl" {
				err = os.WriteFile(path, nil, 0o600)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	runWith(t, s, opt)
	got := getTask(t, s, tk.ID)
	lost, ok := lastEvent(got, task.EventSessionLost)
	if got.State != task.Closed || !ok || lost.Session != parked.SessionID || got.SessionID == parked.SessionID {
		t.Fatalf("%s: %s (session lost: %+v, session %s)", got.State, got.Summary, lost, got.SessionID)
	}
	// rest.txt is written only by a request that carries the human's answer.
	if b := gitT(t, s.Root, "show", "HEAD:rest.txt"); b != "rest" {
		t.Errorf("rest.txt landed as %q", b)
	}
}

// parkedOverBudget is a task whose first run crossed its budget on its
// first reply, parked with the budget's question answered yes.
func parkedOverBudget(t *testing.T) (*store.Store, *task.Task, Options) {
	srv := firstReplyOverBudget(t)
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	s.Config.Budget.PerTask = 0.01
	opt := Options{Env: fakeapi.Env(t, srv)}
	tk := addTask(t, s, "Spend at once")
	runWith(t, s, opt)
	if got := getTask(t, s, tk.ID); got.State != task.AwaitingInput {
		t.Fatalf("%s: %s", got.State, got.Summary)
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"yes"}}}, "alice"); err != nil {
		t.Fatal(err)
	}
	return s, tk, opt
}
