package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrClaudeReported is the cause of a RunError for a run claude itself
// marked as failed (is_error), such as an API error or a turn limit.
var ErrClaudeReported = errors.New("claude reported an error")

// claudeResult is the part of claude's --output-format json object bh reads.
type claudeResult struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	IsError          bool            `json:"is_error"`
	Result           string          `json:"result"`
	Errors           []string        `json:"errors"`
	SessionID        string          `json:"session_id"`
	StructuredOutput json.RawMessage `json:"structured_output"`
	APIErrorStatus   int             `json:"api_error_status"`
	APIError         string          `json:"api_error"` // "connection_failed" when no status came back
	NumTurns         int             `json:"num_turns"`
	Denials          []struct {
		ToolName  string         `json:"tool_name"`
		ToolInput map[string]any `json:"tool_input"`
	} `json:"permission_denials"`
	TotalCostUSD float64     `json:"total_cost_usd"`
	Usage        claudeUsage `json:"usage"`
}

// spend is the run's spend as the result reports it: its tokens, and
// the cost claude itself put on them.
func (cr claudeResult) spend() Spend {
	s := cr.Usage.spend()
	s.CostUSD = cr.TotalCostUSD
	return s
}

// ParseClaude reads the stdout of claude -p --output-format json. The answer
// is taken from structured_output (the --json-schema tool call) or else from
// the result text. Every failure is a *RunError that keeps stdout.
func ParseClaude(stdout []byte) (*Outcome, error) {
	cr, ok := findClaudeResult(stdout)
	if !ok {
		return nil, &RunError{Reason: "claude printed no json result: " + snippet(stdout, 200), Raw: stdout}
	}
	if cr.IsError || strings.HasPrefix(cr.Subtype, "error") {
		msg := cr.Result
		if msg == "" {
			msg = strings.Join(cr.Errors, "; ")
		}
		if cr.Subtype != "" && cr.Subtype != "success" {
			msg = strings.TrimSpace(cr.Subtype + " " + msg)
		}
		return nil, &RunError{Reason: fmt.Sprintf("%v: %s", ErrClaudeReported, msg), Raw: stdout,
			Err: ErrClaudeReported, Outage: cr.outage(msg), Spend: cr.spend()}
	}
	var soErr error
	if len(cr.StructuredOutput) > 0 && string(cr.StructuredOutput) != "null" {
		result, err := ParseResult(cr.StructuredOutput)
		if err == nil {
			return cr.outcome(result, stdout), nil
		}
		soErr = err
	}
	result, err := ParseResult([]byte(cr.Result))
	if err != nil {
		if soErr != nil { // the schema-checked answer explains more
			err = soErr
		}
		return nil, &RunError{Reason: "claude answered without a result: " + err.Error(), Raw: stdout, Err: err}
	}
	return cr.outcome(result, stdout), nil
}

// outage is the outage a failed result reports: by the API's status, else
// by claude's words for an API it could not reach or a missing login.
func (cr claudeResult) outage(msg string) Outage {
	if o := apiOutage(cr.APIErrorStatus, msg); o != "" {
		return o
	}
	if cr.APIError == "connection_failed" {
		return OutageUnreachable
	}
	return outageOfText(msg)
}

func (cr claudeResult) outcome(result Result, stdout []byte) *Outcome {
	out := &Outcome{Result: result, SessionID: cr.SessionID, Raw: stdout, Turns: cr.NumTurns,
		Spend: cr.spend()}
	for _, d := range cr.Denials {
		out.Denials = append(out.Denials, stepText(d.ToolName, d.ToolInput))
	}
	return out
}

// findClaudeResult accepts the single JSON object claude prints, and also
// tolerates stray lines around it (warnings, or stream-json output) by
// taking the last line that is a result object.
func findClaudeResult(stdout []byte) (claudeResult, bool) {
	var cr claudeResult
	if json.Unmarshal(bytes.TrimSpace(stdout), &cr) == nil && cr.Type == "result" {
		return cr, true
	}
	lines := bytes.Split(stdout, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		cr = claudeResult{}
		if json.Unmarshal(bytes.TrimSpace(lines[i]), &cr) == nil && cr.Type == "result" {
			return cr, true
		}
	}
	return claudeResult{}, false
}
