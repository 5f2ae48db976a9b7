package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// liveOf is where a run's stdout goes as it comes: the request's Live
// writer, and its Step callback told of each tool call in the stream.
func liveOf(req Request) io.Writer {
	switch {
	case req.Step == nil:
		return req.Live
	case req.Live == nil:
		return &stepWriter{step: req.Step}
	}
	return io.MultiWriter(req.Live, &stepWriter{step: req.Step})
}

// stepWriter reads claude's stream-json lines and reports each tool call.
type stepWriter struct {
	step func(string)
	line []byte
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

func (w *stepWriter) event(line []byte) {
	var e struct {
		Type    string `json:"type"`
		Message struct {
			Content []struct {
				Type  string         `json:"type"`
				Name  string         `json:"name"`
				Input map[string]any `json:"input"`
			} `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &e) != nil || e.Type != "assistant" {
		return
	}
	for _, c := range e.Message.Content {
		if c.Type == "tool_use" && c.Name != "StructuredOutput" {
			w.step(stepText(c.Name, c.Input))
		}
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
