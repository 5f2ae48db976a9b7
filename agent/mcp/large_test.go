package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/ask"
	"github.com/bh-tracker/bh/task"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A question too large for the reader is refused to the agent with an
// error it can act on, and nothing is recorded: it is never acknowledged
// and then dropped. The same holds for AskUserQuestion's 10,000 options.
func TestOversizedQuestionIsRefused(t *testing.T) {
	s := newStore(t)
	me, err := s.Create(&task.Task{Title: "Mine"})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, me.ID)
	options := make([]any, 10000)
	for i := range options {
		options[i] = map[string]any{"label": fmt.Sprintf("option %d", i), "description": strings.Repeat("d", 100)}
	}
	for name, args := range map[string]map[string]any{
		AskHuman: {"question": "Which?", "context": strings.Repeat("x", 2<<20)},
		PermissionPrompt: {"tool_name": "AskUserQuestion", "input": map[string]any{"questions": []any{
			map[string]any{"question": "Which?", "options": options}}}},
	} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		msg := res.Content[0].(*sdk.TextContent).Text
		if !res.IsError || !strings.Contains(msg, "question too large") || !strings.Contains(msg, fmt.Sprint(MaxQuestionBytes)) ||
			!strings.Contains(msg, "Shorten it and ask again") {
			t.Errorf("%s: want a tool error naming the limit, got IsError=%v %.200s", name, res.IsError, msg)
		}
		if qs, err := TakeAsked(testOutbox(s, me.ID)); err != nil || len(qs) != 0 {
			t.Errorf("%s: recorded %d questions (%v)", name, len(qs), err)
		}
	}
	// The agent shortens it: that one is taken.
	call(t, cs, AskHuman, map[string]any{"question": "Which? (details in notes.md)"})
	if qs, err := TakeAsked(testOutbox(s, me.ID)); err != nil || len(qs) != 1 {
		t.Errorf("the shorter question: %+v %v", qs, err)
	}
}

// The writer's limit is the reader's: a question of exactly the limit is
// read back, one byte more is refused.
func TestQuestionLimitIsTheReaders(t *testing.T) {
	s := newStore(t)
	q := ask.Question{Type: ask.QuestionFreeform}
	empty, _ := json.Marshal(q)
	q.Question = strings.Repeat("q", MaxQuestionBytes-len(empty))
	if err := record(testOutbox(s, "t1"), q); err != nil {
		t.Fatalf("a question of the limit: %v", err)
	}
	if qs, err := TakeAsked(testOutbox(s, "t1")); err != nil || len(qs) != 1 {
		t.Fatalf("read back %d questions: %v", len(qs), err)
	}
	q.Question += "q"
	if err := record(testOutbox(s, "t1"), ask.Question{Question: "small"}, q); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("one byte over: %v", err)
	}
	if qs, _ := TakeAsked(testOutbox(s, "t1")); len(qs) != 0 {
		t.Errorf("a refused batch left %d questions", len(qs))
	}
}
