package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/agent/ask"
)

// askUserQuestion is the input of Claude Code's AskUserQuestion tool.
type askUserQuestion struct {
	Questions []struct {
		Question    string       `json:"question"`
		Header      string       `json:"header"`
		Options     []ask.Option `json:"options"`
		MultiSelect bool         `json:"multiSelect"`
	} `json:"questions"`
}

// permissionQuestions is what a permission prompt asks the human: the
// agent's own typed questions for AskUserQuestion, else whether to allow
// the tool call (a yes allows it on the next run).
func permissionQuestions(in PermissionInput) []ask.Question {
	if in.ToolName == "AskUserQuestion" {
		var a askUserQuestion
		if b, err := json.Marshal(in.Input); err == nil && json.Unmarshal(b, &a) == nil && len(a.Questions) > 0 {
			qs := make([]ask.Question, 0, len(a.Questions))
			for _, q := range a.Questions {
				typ := ask.QuestionChoice
				if len(q.Options) == 0 {
					typ = ask.QuestionFreeform
				}
				qs = append(qs, ask.Question{Question: q.Question, Header: q.Header, Type: typ,
					Options: q.Options, MultiSelect: q.MultiSelect})
			}
			return qs
		}
	}
	rule, what := toolRule(in)
	return []ask.Question{{Header: "Permission", Type: ask.QuestionApproval, Tool: rule,
		Question: fmt.Sprintf("Allow the agent to %s?", what)}}
}

// toolRule is the --allowedTools rule that allows exactly this call, and
// the call in words.
func toolRule(in PermissionInput) (rule, what string) {
	if cmd, ok := in.Input["command"].(string); ok && in.ToolName == "Bash" {
		cmd = strings.TrimSpace(cmd)
		return "Bash(" + cmd + ")", "run `" + cmd + "`"
	}
	if p, ok := in.Input["file_path"].(string); ok {
		return in.ToolName, "use " + in.ToolName + " on " + p
	}
	return in.ToolName, "use " + in.ToolName
}
