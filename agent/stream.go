package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// newStepWriter reads a run's stdout as it comes: it tells req.Step of
// each tool call, req.Limit and req.Spent of the usage limit and the spend
// (model prices codex's tokens: its events name no model), and calls stop,
// once set, with the outage when the API refuses the credentials (claude
// would retry that for minutes) or cannot be reached after netTries
// (codex would wait for the network for ever).
func newStepWriter(req Request, model string) *stepWriter {
	return &stepWriter{step: req.Step, session: req.Session,
		meter: meter{limit: req.Limit, spent: req.Spent, model: model}}
}

// to is where the run's stdout goes: live (req.Live, may be nil) and w.
func (w *stepWriter) to(live io.Writer) io.Writer {
	if live == nil {
		return w
	}
	return io.MultiWriter(live, w)
}

// stepWriter reads claude's stream-json lines, or codex's --json events.
type stepWriter struct {
	step     func(string) // may be nil
	session  func(string) // may be nil
	stop     func(Outage) // called once at most
	netWaits int          // codex's "Reconnecting... waiting for network", claude's unreached retries, so far
	line     []byte
	meter
}

// netTries is how many times codex or claude tries an API it cannot
// reach before bh stops it: codex's waits grow (5 s, 10 s, 20 s, ...)
// without end, claude's for minutes.
const netTries = 3

// unreached reports whether an API retry's status says the request never
// reached the API: no status at all, or a gateway's (bh's egress proxy
// answers 502 when it cannot connect, 504 when the connection times out).
func unreached(status int) bool { return status == 0 || status == 502 || status == 504 }

// errUnreachable stops an agent that waits for an API it cannot reach.
var errUnreachable = errors.New("the API cannot be reached")

// stopFor is the stop of one run: it cancels ctx with the outage's cause.
func stopFor(cancel context.CancelCauseFunc) func(Outage) {
	return func(o Outage) {
		if o == OutageAuth {
			cancel(errRefused)
			return
		}
		cancel(errUnreachable)
	}
}

func (w *stepWriter) outage(o Outage) {
	if w.stop != nil {
		w.stop(o)
		w.stop = nil
	}
}

func (w *stepWriter) Write(p []byte) (int, error) {
	w.line = append(w.line, p...)
	for {
		i := bytes.IndexByte(w.line, '\n')
		if i < 0 {
			break
		}
		w.event(w.line[:i])
		w.line = w.line[i+1:]
	}
	if len(w.line) > MaxOutputBytes { // one huge line: not worth a step
		w.line = nil
	}
	return len(p), nil
}

// claudeEvent is what bh reads of one line of claude's stream-json.
type claudeEvent struct {
	Type        string `json:"type"`
	Subtype     string `json:"subtype"`
	ErrorStatus int    `json:"error_status"`
	Error       string `json:"error"`
	Attempt     int    `json:"attempt"`
	MaxRetries  int    `json:"max_retries"`
	RetryDelay  int64  `json:"retry_delay_ms"`
	// RateLimitInfo is a rate_limit_event's; APIErrorParams's comes with
	// the assistant message of a refusal (api_error usage_limit_reached).
	RateLimitInfo  *claudeLimitInfo `json:"rate_limit_info"`
	APIErrorParams struct {
		RateLimitInfo *claudeLimitInfo `json:"rate_limit_info"`
	} `json:"api_error_params"`
	Message struct {
		ID      string       `json:"id"`
		Model   string       `json:"model"`
		Usage   *claudeUsage `json:"usage"`
		Content []struct {
			Type  string         `json:"type"`
			Name  string         `json:"name"`
			Input map[string]any `json:"input"`
		} `json:"content"`
	} `json:"message"`
}

func (w *stepWriter) event(line []byte) {
	var kind struct {
		Type string `json:"type"`
	}
	json.Unmarshal(line, &kind) // codex's "error" has a string message: read apart
	if t := kind.Type; strings.HasPrefix(t, "thread.") || strings.HasPrefix(t, "item.") || strings.HasPrefix(t, "turn.") || t == "error" {
		w.codexEvent(line)
		return
	}
	var e claudeEvent
	if json.Unmarshal(line, &e) != nil {
		return
	}
	if e.Type == "system" && e.Subtype == "api_retry" {
		w.apiRetry(e)
	}
	w.claudeEvent(e)
	if e.Type != "assistant" || w.step == nil {
		return
	}
	for _, c := range e.Message.Content {
		if c.Type == "tool_use" && c.Name != "StructuredOutput" {
			w.step(stepText(c.Name, c.Input))
		}
	}
}

// apiRetry reads claude's note that it will ask the API again.
func (w *stepWriter) apiRetry(e claudeEvent) {
	switch {
	case outageOfStatus(e.ErrorStatus) == OutageAuth && w.stop != nil:
		w.outage(OutageAuth)
	case e.ErrorStatus == 429:
		// A rate limit, over when claude asks again: its wait follows the
		// retry-after, capped (measured: 19 s for 38 s).
		w.tell(Limit{Status: LimitRejected, ResetsAt: time.Now().Add(time.Duration(e.RetryDelay) * time.Millisecond),
			Said: fmt.Sprintf("the API answered 429 (%s); claude retries", e.Error)})
	case unreached(e.ErrorStatus) && w.stop != nil:
		// No answer from the API itself: no connection (status 0), or
		// bh's egress proxy saying it could not reach it (502, 504).
		// claude would retry that for minutes, task after task.
		if w.netWaits++; w.netWaits >= netTries {
			w.outage(OutageUnreachable)
		}
	}
	if w.step != nil { // so bh status says why nothing moves
		w.step(fmt.Sprintf("the API answered %d (%s); claude retries in %s (attempt %d of %d)",
			e.ErrorStatus, e.Error, time.Duration(e.RetryDelay)*time.Millisecond, e.Attempt, e.MaxRetries))
	}
}

// stepText is a tool call in a few words: "Write hello.txt", "Bash: go test".
func stepText(name string, in map[string]any) string {
	for _, k := range []string{"command", "file_path", "path", "pattern", "url"} {
		if v, ok := in[k].(string); ok && v != "" {
			v = strings.Join(strings.Fields(v), " ")
			if len(v) > 80 {
				v = v[:77] + "..."
			}
			if k == "command" {
				return fmt.Sprintf("%s: %s", name, v)
			}
			return name + " " + v
		}
	}
	return name
}

func (w *stepWriter) codexEvent(line []byte) {
	var e codexEvent
	json.Unmarshal(line, &e)
	w.meter.codexEvent(e)
	switch {
	case e.Type == "error" && outageOfText(e.Message) == OutageUnreachable:
		if w.netWaits++; w.netWaits >= netTries {
			w.outage(OutageUnreachable)
		} else if w.step != nil {
			w.step(fmt.Sprintf("%s (try %d of %d)", e.Message, w.netWaits, netTries))
		}
	case e.Type == "thread.started" && w.session != nil && e.ThreadID != "":
		w.session(e.ThreadID)
	case e.Type == "item.started" && w.step != nil:
		if s := codexStep(e.Item); s != "" {
			w.step(s)
		}
	}
}
