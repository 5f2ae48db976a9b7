package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
)

// RealTimeout is the agent timeout of the configs of tests that run a
// real claude or codex: it bounds a failure, never a pass.
var RealTimeout = fakeapi.Patience(time.Minute).Round(time.Second).String()

// RequestsFor lists the server's requests whose prompt names title.
func RequestsFor(srv *fakeapi.Server, title string) []*fakeapi.Request {
	var out []*fakeapi.Request
	for _, r := range srv.Requests() {
		if strings.Contains(r.Prompt(), title) {
			out = append(out, r)
		}
	}
	return out
}

// Wrote reports whether the conversation so far called Write on name.
func Wrote(req *fakeapi.Request, name string) bool {
	for _, u := range req.ToolUses() {
		var in struct {
			Path string `json:"file_path"`
		}
		if u.Name == "Write" && json.Unmarshal(u.Input, &in) == nil && filepath.Base(in.Path) == name {
			return true
		}
	}
	return false
}
