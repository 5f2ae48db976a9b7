package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/google/uuid"
)

// A read-only request runs claude in its plan mode: a Write the model
// tries is refused by claude itself, and the run still ends with its
// result object.
func TestClaudePlanModeRefusesWrites(t *testing.T) {
	t.Parallel()
	e := newE2E(t, ClaudeConfig{}, fakeapi.Sequence(
		fakeapi.Reply(fakeapi.Write("hello.txt", "hello\n")),
		fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "planned",
			"details": "1. write hello.txt"})),
	))
	out, err := e.claude.Run(context.Background(), Request{Prompt: "plan hello.txt", Dir: e.dir,
		SessionID: uuid.NewString(), TaskID: "bh-test", Env: e.env, ReadOnly: true})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if out.Result.Status != StatusCompleted || out.Result.Details != "1. write hello.txt" {
		t.Errorf("result = %+v", out.Result)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "hello.txt")); err == nil {
		t.Errorf("plan mode let the model write hello.txt")
	}
	reqs := e.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	res := reqs[1].ToolResults()
	if len(res) != 1 || !res[0].IsError {
		t.Errorf("the Write's result = %+v, want an error", res)
	}
	t.Logf("write result: %s; denials %v", res[0].ResultText(), out.Denials)
}
