package agent

import (
	"cmp"
	"time"
)

// meter follows a run's usage limit and spend as the CLI streams them.
type meter struct {
	limit   func(Limit) // Request.Limit; may be nil
	spent   func(Spend) // Request.Spent; may be nil
	model   string      // codex's model, for its prices
	account string      // put on every Limit told
	told    Limit       // the last Limit told
	refused *Limit      // the last rejected one
	msgs    map[string]Spend
	order   []string // msgs' ids, first seen first
	turns   Spend    // codex's turns so far, priced
	last    Spend    // the last spend told
}

// claudeUsage is the usage of one of claude's assistant messages, or of
// its whole run on the result line.
type claudeUsage struct {
	InputTokens   int64 `json:"input_tokens"`
	OutputTokens  int64 `json:"output_tokens"`
	CacheRead     int64 `json:"cache_read_input_tokens"`
	CacheCreation int64 `json:"cache_creation_input_tokens"`
}

func (u claudeUsage) spend() Spend {
	return Spend{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CacheReadTokens: u.CacheRead,
		CacheWriteTokens: u.CacheCreation}
}

// codexUsage is a codex turn.completed's usage; input_tokens counts the
// cached ones too.
type codexUsage struct {
	InputTokens      int64 `json:"input_tokens"`
	CachedInput      int64 `json:"cached_input_tokens"`
	CacheWriteTokens int64 `json:"cache_write_input_tokens"`
	OutputTokens     int64 `json:"output_tokens"`
}

// claudeEvent reads a line of claude's stream-json for limits and spend.
func (m *meter) claudeEvent(e claudeEvent) {
	switch {
	case e.Type == "rate_limit_event" && e.RateLimitInfo != nil:
		m.tell(e.RateLimitInfo.limit())
	case e.Type == "assistant" && e.APIErrorParams.RateLimitInfo != nil:
		m.tell(e.APIErrorParams.RateLimitInfo.limit())
	case e.Type == "assistant" && e.Message.Usage != nil:
		m.claudeUsage(e.Message.ID, e.Message.Model, *e.Message.Usage)
	}
}

// codexEvent reads a codex event for limits and spend.
func (m *meter) codexEvent(e codexEvent) {
	switch {
	case e.Type == "error" || e.Type == "turn.failed":
		if l := limitOfText(e.Message+e.Error.Message, time.Now()); l != nil {
			m.tell(*l)
		}
	case e.Type == "turn.completed" && e.Usage != nil:
		m.codexUsage(*e.Usage)
	}
}

// tell passes a usage-limit report on, unless it repeats the last one.
func (m *meter) tell(l Limit) {
	l.Account = m.account
	if l.Status == LimitRejected {
		m.refused = &l
	}
	if l.Status == m.told.Status && l.ResetsAt.Equal(m.told.ResetsAt) && l.Window == m.told.Window {
		return
	}
	m.told = l
	if m.limit != nil {
		m.limit(l)
	}
}

// claudeUsage prices one assistant message's usage. claude prints a
// message once per content block, each with the same usage so far: the
// last one of an id counts, once. Its output count there is provisional
// (the stream's first count, measured 1); the result's total replaces it.
func (m *meter) claudeUsage(id, model string, u claudeUsage) {
	if m.msgs == nil {
		m.msgs = map[string]Spend{}
	}
	if _, ok := m.msgs[id]; !ok {
		m.order = append(m.order, id)
	}
	s := u.spend()
	s.CostUSD = cost(model, s)
	m.msgs[id] = s
	m.grew()
}

// codexUsage adds a codex turn's usage, priced at the configured model.
func (m *meter) codexUsage(u codexUsage) {
	s := Spend{InputTokens: u.InputTokens - u.CachedInput, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CachedInput, CacheWriteTokens: u.CacheWriteTokens}
	s.CostUSD = cost(m.model, s)
	m.turns = m.turns.add(s)
	m.grew()
}

// spend is the run's spend so far, as streamed.
func (m *meter) spend() Spend {
	s := m.turns
	for _, id := range m.order {
		s = s.add(m.msgs[id])
	}
	return s
}

// grew tells Spent of the spend when it changed.
func (m *meter) grew() {
	if s := m.spend(); s != m.last {
		m.last = s
		if m.spent != nil {
			m.spent(s)
		}
	}
}

// finish completes what a run returns with what was streamed: the spend
// where the CLI reported none at the end, and the limit that refused a
// run cut short by it (from the stream, else from the CLI's words).
func (m *meter) finish(out *Outcome, err error) (*Outcome, error) {
	if out != nil && out.Spend == (Spend{}) {
		out.Spend = m.spend()
	}
	re, ok := err.(*RunError)
	if !ok {
		return out, err
	}
	if re.Spend == (Spend{}) {
		re.Spend = m.spend()
	}
	if re.Outage != OutageLimit || re.Limit != nil {
		return out, err
	}
	switch {
	case m.refused != nil:
		l := *m.refused
		l.Said = cmp.Or(l.Said, re.Reason) // where the event has no words, the run's end has
		re.Limit = &l
	default:
		re.Limit = cmp.Or(limitOfText(re.Reason, time.Now()), &Limit{Status: LimitRejected, Said: re.Reason})
		re.Limit.Account = m.account
	}
	return out, err
}
