package agent

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/google/uuid"
)

// told records what a run tells of its limits and spend.
type told struct {
	mu     sync.Mutex
	limits []Limit
	spends []Spend
}

func (r *told) into(req Request) Request {
	req.Limit = func(l Limit) { r.mu.Lock(); r.limits = append(r.limits, l); r.mu.Unlock() }
	req.Spent = func(s Spend) { r.mu.Lock(); r.spends = append(r.spends, s); r.mu.Unlock() }
	return req
}

// The real claude, logged in with a plan, against an exhausted five-hour
// window (with bh's own retry setting): the run ends at once as a limit
// outage whose reset is the API's, told as it came.
func TestClaudeExhaustedWindowEndsWithItsReset(t *testing.T) {
	t.Parallel()
	e := newE2E(t, ClaudeConfig{}, nil)
	reset := time.Now().Add(time.Hour).Truncate(time.Second)
	e.srv.Exhaust(reset, 0)
	env := append(fakeapi.Subscriber(e.env), "CLAUDE_CODE_MAX_RETRIES=") // bh's default retries
	var rec told
	_, err := e.claude.Run(context.Background(), rec.into(Request{Prompt: "go", Dir: e.dir, SessionID: uuid.NewString(),
		TaskID: "bh-test", Env: env}))
	var re *RunError
	if !errors.As(err, &re) || re.Outage != OutageLimit || re.Limit == nil {
		t.Fatalf("err = %v, want a usage-limit outage with its limit", err)
	}
	if !re.Limit.ResetsAt.Equal(reset) || re.Limit.Window != "five_hour" || re.Limit.Account == "" {
		t.Errorf("limit = %+v, want five_hour resetting at %s, with an account", *re.Limit, reset)
	}
	if len(rec.limits) == 0 || rec.limits[0].Status != LimitRejected || !rec.limits[0].ResetsAt.Equal(reset) {
		t.Errorf("limits told = %+v, want the rejection as it came", rec.limits)
	}
	if n := e.srv.Refused(); n != 1 {
		t.Errorf("claude asked %d times, want once (no retries against a known reset)", n)
	}
}

// A window nearly used up is told (allowed_warning), and a turn with
// large usage makes the spend grow while the run goes on.
func TestClaudeWarningAndSpendAreToldMidRun(t *testing.T) {
	t.Parallel()
	reset := time.Now().Add(time.Hour).Truncate(time.Second)
	var rec told
	e := newE2E(t, ClaudeConfig{}, func(req *fakeapi.Request) fakeapi.Turn {
		if req.N == 1 {
			return fakeapi.Turn{Parts: []fakeapi.Part{fakeapi.Text("Looking."), fakeapi.Bash("true")}, Tokens: 100_000}.Warn(reset)
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "ok"}))
	})
	out, err := e.claude.Run(context.Background(), rec.into(Request{Prompt: "go", Dir: e.dir, SessionID: uuid.NewString(),
		TaskID: "bh-test", Env: fakeapi.Subscriber(e.env)}))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	warned := false
	for _, l := range rec.limits {
		warned = warned || (l.Status == LimitWarning && l.ResetsAt.Equal(reset))
	}
	if !warned {
		t.Errorf("limits told = %+v, want allowed_warning resetting at %s", rec.limits, reset)
	}
	// Told per message as claude streams: the first turn's 50,000 input
	// tokens, then more with the second.
	if n := len(rec.spends); n != 2 || rec.spends[0].InputTokens != 50_000 || rec.spends[1].CostUSD <= rec.spends[0].CostUSD {
		t.Errorf("spends told = %+v, want the first turn's 50,000 input tokens, then growing", rec.spends)
	}
	// Spend: claude's total_cost_usd at the end; 50,000 output tokens of
	// claude's default plan model alone cost $0.50. (A turn of a million
	// tokens makes claude compact the conversation instead.)
	if out.Spend.CostUSD < 0.5 || out.Spend.OutputTokens < 50_000 {
		t.Errorf("outcome spend = %+v", out.Spend)
	}
}

// The real codex against an exhausted window: a limit outage with the
// reset codex names, and a large turn's usage told as spend. The reset is
// 26 hours away, on another day whatever the time: codex names it by its
// date ("try again at Nov 29th, 2026 12:28 AM"), and the test does not
// depend on the time of day (TestCodexResetTexts reads both of codex's
// forms with fixed clocks).
func TestCodexExhaustedWindowAndSpend(t *testing.T) {
	t.Parallel()
	e := newCodexE2E(t, fakeapi.CodexSequence(fakeapi.Turn{Tokens: 2_000_000,
		Parts: []fakeapi.Part{fakeapi.Final(map[string]any{"status": "completed", "summary": "ok"})}}))
	reset := time.Now().Add(26 * time.Hour).Truncate(time.Minute)
	e.srv.Exhaust(reset, 1)
	var rec told
	_, err := e.run(t, rec.into(Request{Prompt: "go", System: codexContract}))
	var re *RunError
	if !errors.As(err, &re) || re.Outage != OutageLimit || re.Limit == nil {
		t.Fatalf("err = %v, want a usage-limit outage", err)
	}
	t.Logf("codex said %q", re.Limit.Said)
	// codex names the reset in minutes.
	if !re.Limit.ResetsAt.Equal(reset) || len(rec.limits) != 1 {
		t.Errorf("limit = %+v (told %+v), want resetting at %s", *re.Limit, rec.limits, reset)
	}
	out, err := e.run(t, rec.into(Request{Prompt: "go", System: codexContract}))
	if err != nil {
		t.Fatalf("after the window: %v", err)
	}
	if len(rec.spends) != 1 || out.Spend.InputTokens != 1_000_000 || out.Spend.CostUSD <= 0 {
		t.Errorf("spend %+v, told %+v", out.Spend, rec.spends)
	}
}
