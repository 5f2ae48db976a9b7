package agent

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stream feeds a recorded transcript to a step writer, as a run's stdout.
func stream(t *testing.T, path string, model string) (*stepWriter, []Limit, []Spend, []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var limits []Limit
	var spends []Spend
	w := newStepWriter(Request{Limit: func(l Limit) { limits = append(limits, l) },
		Spent: func(s Spend) { spends = append(spends, s) }}, model)
	w.Write(raw)
	return w, limits, spends, raw
}

// claude 2.1.330 with a subscription login, the window past its warning
// threshold: the event's top status says allowed, its window says
// allowed_warning; and the spend grows message by message.
func TestClaudeWarningAndSpendAsTheyStream(t *testing.T) {
	w, limits, spends, raw := stream(t, "testdata/claude/stream_limit_warning.jsonl", "")
	if len(limits) == 0 || limits[0].Status != LimitWarning || limits[0].Window != "five_hour" ||
		limits[0].ResetsAt.Unix() != 1795860349 {
		t.Errorf("limits told = %+v, want allowed_warning of five_hour resetting at 1795860349 first", limits)
	}
	if len(spends) != 2 || spends[0].InputTokens != 12896 || spends[1].InputTokens != 12896+12995 {
		t.Errorf("spends told = %+v, want two, one per message id", spends)
	}
	out, err := ParseClaude(raw)
	if err != nil {
		t.Fatal(err)
	}
	// The streamed output counts are claude's provisional ones (1 a
	// message); input dominates, so the priced stream is within 2% of
	// what claude charged.
	streamed, charged := w.spend().CostUSD, out.Spend.CostUSD
	if charged != 0.052022 || math.Abs(streamed-charged) > 0.02*charged {
		t.Errorf("priced stream $%f, claude's total_cost_usd $%f: want within 2%%", streamed, charged)
	}
	if out.Spend.InputTokens != 25891 || out.Spend.OutputTokens != 24 {
		t.Errorf("outcome spend = %+v, want the result's usage", out.Spend)
	}
}

// A rejected window: the rate_limit_event and the refusal's own
// rate_limit_info name the reset, and the run ends as a limit outage.
func TestClaudeRejectedWindowEndsTheRunWithItsReset(t *testing.T) {
	w, limits, _, raw := stream(t, "testdata/claude/stream_limit_rejected.jsonl", "")
	if len(limits) != 1 || limits[0].Status != LimitRejected || limits[0].ResetsAt.Unix() != 1795860349 {
		t.Errorf("limits told = %+v, want one rejected, resetting at 1795860349", limits)
	}
	_, err := w.finish(ParseClaude(raw))
	var re *RunError
	if !errors.As(err, &re) || re.Outage != OutageLimit || re.Limit == nil || re.Limit.ResetsAt.Unix() != 1795860349 ||
		re.Limit.Window != "five_hour" {
		t.Fatalf("err = %#v (limit %+v), want a limit outage resetting at 1795860349", err, re.Limit)
	}
	if !strings.Contains(re.Limit.Said, "You've hit your 5-hour limit") {
		t.Errorf("limit said %q, want claude's words", re.Limit.Said)
	}
}

// With an API key, claude 2.1.330 reports a rejected window as a bare 429:
// a limit outage whose reset is unknown.
func TestClaude429WithAnAPIKeyIsALimitWithoutReset(t *testing.T) {
	w, limits, _, raw := stream(t, "testdata/claude/stream_429_apikey.jsonl", "")
	_, err := w.finish(ParseClaude(raw))
	var re *RunError
	if len(limits) != 0 || !errors.As(err, &re) || re.Outage != OutageLimit || re.Limit == nil ||
		re.Limit.Status != LimitRejected || !re.Limit.ResetsAt.IsZero() {
		t.Fatalf("limits %+v, err %#v, want a limit outage without reset", limits, err)
	}
}

func TestCodexUsageLimitAndSpend(t *testing.T) {
	w, limits, _, raw := stream(t, "testdata/codex/usage_limit.jsonl", "")
	_, err := w.finish(ParseCodex(raw, nil))
	var re *RunError
	if !errors.As(err, &re) || re.Outage != OutageLimit || re.Limit == nil || re.Limit.ResetsAt.IsZero() ||
		len(limits) != 1 || limits[0].Status != LimitRejected {
		t.Fatalf("limits %+v, err %#v, want a limit outage with its reset", limits, err)
	}
	if h, m := re.Limit.ResetsAt.Hour(), re.Limit.ResetsAt.Minute(); h != 10 || m != 6 {
		t.Errorf("reset %s, want 10:06 as codex said", re.Limit.ResetsAt)
	}
	w, _, spends, raw := stream(t, "testdata/codex/large_usage.jsonl", "gpt-5")
	out, err := w.finish(ParseCodex(raw, []byte(`{"status":"completed","summary":"ok"}`)))
	if err != nil {
		t.Fatal(err)
	}
	want := Spend{CostUSD: 1.25 + 10, InputTokens: 1e6, OutputTokens: 1e6}
	if len(spends) != 1 || out.Spend != want {
		t.Errorf("spend %+v (told %+v), want %+v", out.Spend, spends, want)
	}
}

func TestLimitTexts(t *testing.T) {
	now := time.Date(2026, 11, 28, 16, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		msg    string
		reset  time.Time
		window string
	}{
		{"Claude AI usage limit reached|1795860349", time.Unix(1795860349, 0), ""},
		{"You've hit your 5-hour limit · resets 3pm (UTC)", time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC), "five_hour"},
		{"You've hit your weekly limit · resets 10:05am (UTC)", time.Date(2026, 11, 29, 10, 5, 0, 0, time.UTC), "seven_day"},
		{"You’ve hit your usage limit. Try again later.", time.Time{}, ""},
	} {
		l := limitOfText(tt.msg, now)
		if l == nil || l.Status != LimitRejected || !l.ResetsAt.Equal(tt.reset) || l.Window != tt.window {
			t.Errorf("%q: %+v, want reset %s window %q", tt.msg, l, tt.reset, tt.window)
		}
	}
	if l := limitOfText("API Error: 500 internal", now); l != nil {
		t.Errorf("an API error read as a limit: %+v", l)
	}
}

// codex names a reset by its time of day when it falls today (its local
// day), else by its date: both read, with fixed clocks in the local zone,
// just before midnight included.
func TestCodexResetTexts(t *testing.T) {
	at := func(d, h, m int) time.Time { return time.Date(2026, 11, d, h, m, 0, 0, time.Local) }
	const hit = "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), or try again at "
	for _, tt := range []struct {
		now   time.Time
		said  string
		reset time.Time
	}{
		{at(28, 16, 0), "6:28 PM.", at(28, 18, 28)},
		{at(28, 16, 0), "Nov 29th, 2026 12:28 AM.", at(29, 0, 28)},
		{at(28, 16, 0), "Dec 1st, 2026 1:05 PM.", time.Date(2026, 12, 1, 13, 5, 0, 0, time.Local)},
		{at(28, 16, 0), "Jan 2nd, 2027 12:00 PM.", time.Date(2027, 1, 2, 12, 0, 0, 0, time.Local)},
		{at(28, 16, 0), "Nov 23rd, 2026 11:59 PM.", at(23, 23, 59)},
		{at(28, 23, 59), "Nov 29th, 2026 1:59 AM.", at(29, 1, 59)},
		{at(28, 23, 59), "11:59 PM.", at(29, 23, 59)},
		{at(28, 23, 59), "12:01 AM.", at(29, 0, 1)},
		{at(28, 23, 59), "Nov 29th 2026 1:59 AM.", time.Time{}}, // not codex's form: no reset read
	} {
		l := limitOfText(hit+tt.said, tt.now)
		if l == nil || l.Status != LimitRejected || !l.ResetsAt.Equal(tt.reset) {
			t.Errorf("at %s, %q: %+v, want reset %s", tt.now, tt.said, l, tt.reset)
		}
	}
}

func TestAccountIsAStableFingerprint(t *testing.T) {
	home := t.TempDir()
	a := AccountOf([]string{"HOME=" + home, "ANTHROPIC_API_KEY=sk-secret", "ANTHROPIC_BASE_URL=", "ANTHROPIC_AUTH_TOKEN=",
		"CLAUDE_CODE_OAUTH_TOKEN="}, "claude")
	b := AccountOf([]string{"HOME=" + home, "ANTHROPIC_API_KEY=sk-other", "ANTHROPIC_BASE_URL=", "ANTHROPIC_AUTH_TOKEN=",
		"CLAUDE_CODE_OAUTH_TOKEN="}, "claude")
	if len(a) != 12 || a == b || a != AccountOf([]string{"HOME=" + home, "ANTHROPIC_API_KEY=sk-secret", "ANTHROPIC_BASE_URL=",
		"ANTHROPIC_AUTH_TOKEN=", "CLAUDE_CODE_OAUTH_TOKEN="}, "claude") {
		t.Errorf("accounts %q, %q: want 12 hex digits, stable, apart per key", a, b)
	}
	os.WriteFile(filepath.Join(home, ".claude.json"), []byte(`{"oauthAccount":{"accountUuid":"u-1"}}`), 0o600)
	login := []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=", "ANTHROPIC_API_KEY=", "ANTHROPIC_AUTH_TOKEN=", "CLAUDE_CODE_OAUTH_TOKEN="}
	if got := AccountOf(login, "claude"); got == "" || got == a {
		t.Errorf("a login's account = %q", got)
	}
	if got := AccountOf([]string{"HOME=" + t.TempDir(), "OPENAI_API_KEY=", "CODEX_API_KEY=", "CODEX_HOME="}, "codex"); got != "" {
		t.Errorf("no credential: account %q, want unknown", got)
	}
}
