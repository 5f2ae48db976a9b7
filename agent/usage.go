package agent

import "time"

// Limit is what an agent's CLI said of the account's usage limit: claude's
// stream-json rate_limit_event, its "usage limit reached|<epoch>" text, a
// 429's retry-after, codex's equivalents.
type Limit struct {
	Status   string    `json:"status"`            // LimitAllowed, LimitWarning or LimitRejected
	ResetsAt time.Time `json:"resetsAt,omitzero"` // zero: the CLI did not say
	Window   string    `json:"window,omitempty"`  // the limit's window: five_hour, seven_day, ...
	Account  string    `json:"account,omitempty"` // a stable, non-secret fingerprint of the account
	Said     string    `json:"said,omitempty"`    // the CLI's words, for the human
}

// A Limit's statuses, as claude's rate_limit_event names them.
const (
	LimitAllowed  = "allowed"
	LimitWarning  = "allowed_warning"
	LimitRejected = "rejected"
)

// Spend is what a run has cost so far: tokens as the API counted them,
// and their price in USD.
type Spend struct {
	CostUSD          float64 `json:"costUsd,omitempty"`
	InputTokens      int64   `json:"inputTokens,omitempty"`
	OutputTokens     int64   `json:"outputTokens,omitempty"`
	CacheReadTokens  int64   `json:"cacheReadTokens,omitempty"`
	CacheWriteTokens int64   `json:"cacheWriteTokens,omitempty"`
}

// Tokens is every token the run used.
func (s Spend) Tokens() int64 {
	return s.InputTokens + s.OutputTokens + s.CacheReadTokens + s.CacheWriteTokens
}
