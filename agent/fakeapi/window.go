package fakeapi

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Window is the account's usage window as the fake reports it, in the
// headers the real APIs send: Anthropic's anthropic-ratelimit-unified-*
// (status, reset, representative-claim, and the 5h- variants claude reads
// per window), and codex's x-codex-primary-* on the Responses fake.
type Window struct {
	Status   string    // "allowed", "allowed_warning" or "rejected"
	ResetsAt time.Time // when the window resets
	Claim    string    // the window: "five_hour" when empty
}

// Warn reports t's window as nearly used up (allowed_warning), resetting
// at reset, on an answer that otherwise goes through.
func (t Turn) Warn(reset time.Time) Turn {
	t.Window = &Window{Status: "allowed_warning", ResetsAt: reset}
	return t
}

// Exhaust makes the fake answer every model request as an account whose
// five-hour window is used up until reset, as the real APIs do: HTTP 429
// with the window's headers (status rejected, the reset epoch) and a
// retry-after of the seconds left. It lasts until reset passes or, when
// n > 0, for the next n requests, whichever ends first. Refused requests
// reach no script and are not in Requests; Refused counts them.
func (f *fake) Exhaust(reset time.Time, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.exhausted, f.exhaustN = reset, n
	if n <= 0 {
		f.exhaustN = -1
	}
}

// Refused is how many model requests Exhaust refused.
func (f *fake) Refused() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refused
}

// refuse reports whether the window is exhausted for this request, and
// if so counts it and returns the window to answer with.
func (f *fake) refuse() *Window {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.exhaustN == 0 || !time.Now().Before(f.exhausted) {
		return nil
	}
	if f.exhaustN > 0 {
		f.exhaustN--
	}
	f.refused++
	return &Window{Status: "rejected", ResetsAt: f.exhausted}
}

// header sets w's window headers: the unified ones claude reads, and
// codex's x-codex-primary-* (used percent, window minutes, reset epoch).
// A rejected window also gets retry-after.
func (win *Window) header(h http.Header) {
	claim := win.Claim
	if claim == "" {
		claim = "five_hour"
	}
	reset := strconv.FormatInt(win.ResetsAt.Unix(), 10)
	used := map[string]string{"allowed": "0.2", "allowed_warning": "0.95", "rejected": "1.0"}[win.Status]
	for k, v := range map[string]string{
		"anthropic-ratelimit-unified-status":               win.Status,
		"anthropic-ratelimit-unified-reset":                reset,
		"anthropic-ratelimit-unified-representative-claim": claim,
		"anthropic-ratelimit-unified-5h-status":            win.Status,
		"anthropic-ratelimit-unified-5h-reset":             reset,
		"anthropic-ratelimit-unified-5h-utilization":       used,
		"x-codex-primary-used-percent":                     fmt.Sprint(map[string]int{"allowed": 20, "allowed_warning": 95, "rejected": 100}[win.Status]),
		"x-codex-primary-window-minutes":                   "300",
		"x-codex-primary-reset-at":                         reset,
	} {
		h.Set(k, v)
	}
	if win.Status == "rejected" {
		h.Set("retry-after", strconv.Itoa(max(1, int(time.Until(win.ResetsAt).Seconds()+0.999))))
	}
}

// Subscriber turns Env's environment into a subscription login's (a
// Claude plan's OAuth token in place of the API key): claude 2.1.330
// reports the usage window (rate_limit_event, a refusal's reset) only to
// such logins, and with an API key shows a bare 429.
func Subscriber(env []string) []string {
	return append(env, "ANTHROPIC_API_KEY=", "CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-fakeapi")
}
