package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/agent"
)

// askUserQuestion is the input of Claude Code's AskUserQuestion tool.
type askUserQuestion struct {
	Questions []struct {
		Question    string         `json:"question"`
		Header      string         `json:"header"`
		Options     []agent.Option `json:"options"`
		MultiSelect bool           `json:"multiSelect"`
	} `json:"questions"`
}

// permissionQuestions is what a permission prompt asks the human: the
// agent's own typed questions for AskUserQuestion, else whether to allow
// the tool call (a yes allows it on the next run).
func permissionQuestions(in PermissionInput) []agent.Question {
	if in.ToolName == "AskUserQuestion" {
		var a askUserQuestion
		if b, err := json.Marshal(in.Input); err == nil && json.Unmarshal(b, &a) == nil && len(a.Questions) > 0 {
			qs := make([]agent.Question, 0, len(a.Questions))
			for _, q := range a.Questions {
				typ := agent.QuestionChoice
				if len(q.Options) == 0 {
					typ = agent.QuestionFreeform
				}
				qs = append(qs, agent.Question{Question: q.Question, Header: q.Header, Type: typ,
					Options: q.Options, MultiSelect: q.MultiSelect})
			}
			return qs
		}
	}
	rule, what := toolRule(in)
	return []agent.Question{{Header: "Permission", Type: agent.QuestionApproval, Tool: rule,
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
