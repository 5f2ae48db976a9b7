package agent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// ErrCodexReported is the cause of a RunError for a turn codex itself
// reported as failed (turn.failed), such as an API error.
var ErrCodexReported = errors.New("codex reported an error")

// codexEvent is one line of codex exec --json.
type codexEvent struct {
	Type     string    `json:"type"`
	ThreadID string    `json:"thread_id"`
	Item     codexItem `json:"item"`
	Message  string    `json:"message"` // type "error"
	Error    struct {
		Message string `json:"message"`
	} `json:"error"` // type "turn.failed"
	Usage *codexUsage `json:"usage"` // type "turn.completed"
}

type codexItem struct {
	Type     string `json:"type"` // agent_message, command_execution, file_change, mcp_tool_call, error, ...
	Text     string `json:"text"`
	Command  string `json:"command"`
	Message  string `json:"message"`
	ExitCode *int   `json:"exit_code"`
	Server   string `json:"server"`
	Tool     string `json:"tool"`
	Changes  []struct {
		Path string `json:"path"`
		Kind string `json:"kind"`
	} `json:"changes"`
}

// codexRun is what bh reads from a run's events.
type codexRun struct {
	thread  string
	message string // the last agent message
	failure string // the last turn.failed or error message
	turns   int
}

func readCodex(stdout []byte) codexRun {
	var r codexRun
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, MaxOutputBytes)
	for sc.Scan() {
		var e codexEvent
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		switch e.Type {
		case "thread.started":
			r.thread = e.ThreadID
		case "item.completed":
			if e.Item.Type == "agent_message" {
				r.message = e.Item.Text
			}
		case "turn.completed":
			r.turns++
		case "turn.failed":
			r.failure = e.Error.Message
		case "error":
			r.failure = e.Message
		}
	}
	return r
}

// ParseCodex reads a codex exec --json run: the thread from its events, the
// answer from the last message (-o's file, else the last agent_message
// event). Every failure is a *RunError that keeps stdout.
func ParseCodex(stdout, last []byte) (*Outcome, error) {
	r := readCodex(stdout)
	text := strings.TrimSpace(string(last))
	if text == "" {
		text = r.message
	}
	if text == "" && r.failure != "" {
		return nil, &RunError{Reason: fmt.Sprintf("%v: %s", ErrCodexReported, r.failure), Raw: stdout,
			Err: ErrCodexReported, Outage: codexOutage(r.failure)}
	}
	if r.thread == "" {
		return nil, &RunError{Reason: "codex printed no thread: " + snippet(stdout, 200), Raw: stdout}
	}
	result, err := ParseResult([]byte(text))
	if err != nil {
		return nil, &RunError{Reason: "codex answered without a result: " + err.Error(), Raw: stdout, Err: err}
	}
	return &Outcome{Result: result, SessionID: r.thread, Raw: stdout, Turns: r.turns}, nil
}

// codexOutage classifies codex's error message: it quotes the HTTP status
// ("unexpected status 401 Unauthorized: ..."), except for a 5xx, which it
// words as high demand.
func codexOutage(msg string) Outage {
	if o := apiOutage(httpStatusIn(msg), msg); o != "" {
		return o
	}
	if strings.Contains(msg, "high demand") {
		return OutageOverloaded
	}
	return outageOfText(msg)
}

var httpStatus = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b([45]\d\d)\b`) })

// httpStatusIn finds the HTTP status an error message quotes, 0 if none.
func httpStatusIn(msg string) int {
	m := httpStatus().FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// codexStep is a codex item in a few words, "" for items that are no step.
func codexStep(it codexItem) string {
	switch it.Type {
	case "command_execution":
		return stepText("Bash", map[string]any{"command": it.Command})
	case "file_change":
		var paths []string
		for _, c := range it.Changes {
			paths = append(paths, c.Path)
		}
		return stepText("Edit", map[string]any{"path": strings.Join(paths, " ")})
	case "mcp_tool_call":
		return "mcp " + it.Server + "." + it.Tool
	case "web_search":
		return "WebSearch"
	}
	return ""
}
