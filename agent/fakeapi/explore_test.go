package fakeapi

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestExplore(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	dir := t.TempDir()
	exec.Command("git", "init", "-q", dir).Run()
	srv := New(t, func(req *Request) Turn {
		for _, m := range req.Messages {
			b, _ := json.Marshal(m.Content)
			t.Logf("   %s: %.300s", m.Role, b)
		}
		switch os.Getenv("EXPLORE") {
		case "write":
			switch req.N {
			case 1:
				return Reply(Text("writing"), Write(dir+"/hello.txt", "hi\n"))
			case 2:
				return Reply(StructuredOutput(map[string]any{"status": "completed", "summary": "wrote"}))
			}
		case "relwrite":
			switch req.N {
			case 1:
				return Reply(Write("rel.txt", "hi\n"))
			case 2:
				return Reply(StructuredOutput(map[string]any{"status": "completed", "summary": "wrote"}))
			}
		case "resume":
			if req.N == 1 {
				return Reply(Write("a.txt", "a"))
			}
		case "bash":
			if req.N == 1 {
				return Reply(Bash("echo hi-from-bash"), Write("w.txt", "x"))
			}
			for _, r := range req.ToolResults() {
				t.Logf("TOOLRESULT err=%v %s", r.IsError, r.ResultText())
			}
		case "text":
			return Reply(Text("here:\n```json\n{\"status\":\"completed\",\"summary\":\"s\"}\n```"))
		case "fail":
			return Fail(500, "api_error", "boom")
		case "overloaded":
			return Fail(529, "overloaded_error", "Overloaded")
		}
		return Reply(Text("done"))
	})
	env := Env(t, srv)
	if os.Getenv("EXPLORE") == "resume" {
		run := func(prompt string, args ...string) {
			cmd := exec.Command(os.Getenv("BH_CLAUDE_BIN"), append([]string{"-p", "--output-format", "json", "--permission-mode", "acceptEdits"}, args...)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), env...)
			cmd.Stdin = strings.NewReader(prompt)
			out, err := cmd.CombinedOutput()
			t.Logf("run %v: err=%v out=%.600s", args, err, out)
		}
		const id = "0b5c7a1e-0d55-4f6b-9a53-3c3a7d1b2f10"
		run("first prompt", "--session-id", id)
		run("second prompt", "--resume", id)
		run("third prompt", "--session-id", id)
		run("fourth prompt", "--resume", "0b5c7a1e-0d55-4f6b-9a53-3c3a7d1b2f11")
		return
	}
	args := append([]string{"-p", "--output-format", "json",
		"--json-schema", `{"type":"object","properties":{"status":{"type":"string"},"summary":{"type":"string"}},"required":["status"]}`},
		strings.Fields(os.Getenv("EXPLORE_ARGS"))...)
	cmd := exec.Command(os.Getenv("BH_CLAUDE_BIN"), args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), strings.Fields(os.Getenv("EXPLORE_ENV"))...)
	cmd.Stdin = strings.NewReader("-do the thing")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	t.Logf("err=%v\nstdout=%s\nstderr=%s", err, out.String(), errb.String())
	t.Logf("side=%d other=%v", len(srv.SideRequests()), srv.Other())
	for _, r := range srv.SideRequests() {
		t.Logf("side: %s", r.Body)
	}
	os.WriteFile("/tmp/explore/last.json", out.Bytes(), 0o644)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		t.Logf("dir: %s", e.Name())
	}
}
