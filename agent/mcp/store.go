package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// brief is a task as the agent's read tools show it.
type brief struct {
	ID          string     `json:"id"`
	Title       string     `json:"title"`
	State       task.State `json:"state"`
	Priority    string     `json:"priority,omitempty"`
	Description string     `json:"description,omitempty"`
	Summary     string     `json:"summary,omitempty"`
	Parent      string     `json:"parent,omitempty"`
	DependsOn   []string   `json:"dependsOn,omitempty"`
}

func briefOf(t *task.Task) brief {
	return brief{ID: t.ID, Title: t.Title, State: t.State, Priority: string(t.Priority), Description: t.Description,
		Summary: t.Summary, Parent: t.Parent, DependsOn: t.DependsOn}
}

func (h *handlers) ready(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
	tasks, _, err := h.s.List()
	if err != nil {
		return nil, nil, err
	}
	out := []brief{}
	for _, t := range task.Ready(tasks, h.s.Now()) {
		out = append(out, briefOf(t))
	}
	res, err := jsonText(out)
	return res, nil, err
}

// ShowInput names a task.
type ShowInput struct {
	ID string `json:"id" jsonschema:"the task's id, or a unique prefix of it"`
}

func (h *handlers) show(_ context.Context, _ *sdk.CallToolRequest, in ShowInput) (*sdk.CallToolResult, any, error) {
	id, err := h.s.Resolve(in.ID)
	if err != nil {
		return nil, nil, err
	}
	t, err := h.s.Get(id)
	if err != nil {
		return nil, nil, err
	}
	res, err := jsonText(briefOf(t))
	return res, nil, err
}

// AddInput is a task the agent discovered.
type AddInput struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Priority    string `json:"priority,omitempty" jsonschema:"P0 (urgent) to P4; P2 when unsure"`
}

func (h *handlers) add(_ context.Context, _ *sdk.CallToolRequest, in AddInput) (*sdk.CallToolResult, any, error) {
	a := Added{Title: strings.TrimSpace(in.Title), Description: in.Description}
	if a.Title == "" {
		return nil, nil, errors.New("add task: a title is needed")
	}
	if in.Priority != "" {
		p, err := task.ParsePriority(in.Priority)
		if err != nil {
			return nil, nil, err
		}
		a.Priority = p
	}
	if err := recordAdded(h.outbox, a); err != nil {
		return nil, nil, fmt.Errorf("add task: %w", err)
	}
	return text(fmt.Sprintf("Recorded %q: bh adds it as a task linked to %s when your run ends. Go on with your own task.",
		a.Title, h.id)), nil, nil
}
