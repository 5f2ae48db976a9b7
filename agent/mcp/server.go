package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/bh-tracker/bh/agent/ask"
	"github.com/bh-tracker/bh/task/store"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool names, as the agent sees them: mcp__bh__<name>.
const (
	ServerName       = "bh"
	PermissionPrompt = "permission_prompt"
	AskHuman         = "ask_human"
	ReadyTasks       = "ready_tasks"
	ShowTask         = "show_task"
	AddTask          = "add_task"
)

// stopNow is what the agent is told once its question is recorded: the
// run parks as awaiting_input whatever it answers after.
const stopNow = "bh has put your question to the human. Stop working now and end your turn " +
	"(status needs_input); you will be resumed in this same session with the answer."

// PhaseEnv tells bh mcp that the run is a planning run (PhasePlan).
const (
	PhaseEnv  = "BH_PHASE"
	PhasePlan = "plan"
)

// planningDenied is what a planning run's agent is told of a call its
// read-only mode refused: no question goes to the human.
const planningDenied = "This is a planning run, which is read-only: change no file. " +
	"Put the change in your plan instead; you carry it out once a human approves the plan."

// Serve runs the MCP server for task id's run over t until the agent
// closes it. The questions go to the run's outbox folder. planning: a
// planning run, whose permission prompts are denied without asking, but
// for the agent's own questions (AskUserQuestion).
func Serve(ctx context.Context, s *store.Store, id, outbox string, planning bool, t sdk.Transport) error {
	srv := sdk.NewServer(&sdk.Implementation{Name: ServerName, Version: "1"}, nil)
	h := &handlers{s: s, id: id, outbox: outbox, planning: planning}
	sdk.AddTool(srv, &sdk.Tool{Name: PermissionPrompt, Description: "Decides the agent's permission prompts. " +
		"AskUserQuestion and tools the mode would deny become questions for the human."}, h.permission)
	sdk.AddTool(srv, &sdk.Tool{Name: AskHuman, Description: "Ask the human a question you cannot answer " +
		"yourself (a product or design decision, something ambiguous). Then stop: you are resumed with the answer."}, h.ask)
	sdk.AddTool(srv, &sdk.Tool{Name: ReadyTasks, Description: "List the tasks ready to be worked on."}, h.ready)
	sdk.AddTool(srv, &sdk.Tool{Name: ShowTask, Description: "Show one task of the tracker by its id."}, h.show)
	sdk.AddTool(srv, &sdk.Tool{Name: AddTask, Description: "Record follow-up work you discovered as a new " +
		"task, linked to the task you are on. Do not do it now."}, h.add)
	if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil {
		return fmt.Errorf("bh mcp: %w", err)
	}
	return nil
}

type handlers struct {
	s        *store.Store
	id       string
	outbox   string
	planning bool
}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

func jsonText(v any) (*sdk.CallToolResult, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return text(string(b)), nil
}

// PermissionInput is what Claude Code sends its --permission-prompt-tool.
type PermissionInput struct {
	ToolName  string         `json:"tool_name"`
	Input     map[string]any `json:"input"`
	ToolUseID string         `json:"tool_use_id,omitempty"`
}

// permission turns a permission prompt into questions for the human and
// denies the call, telling the agent to stop.
func (h *handlers) permission(_ context.Context, _ *sdk.CallToolRequest, in PermissionInput) (*sdk.CallToolResult, any, error) {
	if h.planning && in.ToolName != "AskUserQuestion" {
		res, err := jsonText(map[string]string{"behavior": "deny", "message": planningDenied})
		return res, nil, err
	}
	qs := permissionQuestions(in)
	if err := record(h.outbox, qs...); err != nil {
		return nil, nil, err
	}
	res, err := jsonText(map[string]string{"behavior": "deny", "message": stopNow})
	return res, nil, err
}

// AskInput is ask_human's input.
type AskInput struct {
	Question    string   `json:"question" jsonschema:"the question, answerable in a line"`
	Header      string   `json:"header,omitempty" jsonschema:"a short label for it"`
	Options     []string `json:"options,omitempty" jsonschema:"the answers to choose from, if any"`
	MultiSelect bool     `json:"multiSelect,omitempty" jsonschema:"several options may be chosen"`
	Context     string   `json:"context,omitempty" jsonschema:"what you found: paths, errors, trade-offs"`
}

func (h *handlers) ask(_ context.Context, _ *sdk.CallToolRequest, in AskInput) (*sdk.CallToolResult, any, error) {
	q := ask.Question{Question: in.Question, Header: in.Header, MultiSelect: in.MultiSelect, Type: ask.QuestionFreeform}
	if in.Context != "" {
		q.Question += "\n\n" + in.Context
	}
	for _, o := range in.Options {
		q.Options, q.Type = append(q.Options, ask.Option{Label: o}), ask.QuestionChoice
	}
	if err := record(h.outbox, q); err != nil {
		return nil, nil, err
	}
	return text(stopNow), nil, nil
}
