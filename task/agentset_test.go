package task

import (
	"testing"
)

func TestAgentSettingsCheck(t *testing.T) {
	for _, c := range []struct {
		s   AgentSettings
		key string
	}{
		{AgentSettings{Agent: "codex", Sandbox: "workspace-write", Dir: "sub/dir", Timeout: "5m"}, ""},
		{AgentSettings{Agent: "gpt"}, "agent"},
		{AgentSettings{Timeout: "-1m"}, "timeout"},
		{AgentSettings{PermissionMode: "yolo"}, "permissionMode"},
		{AgentSettings{Sandbox: "none"}, "sandbox"},
		{AgentSettings{Dir: "/etc"}, "dir"},
		{AgentSettings{Dir: "a/../../b"}, "dir"},
	} {
		if key, err := c.s.Check(); key != c.key || (err != nil) != (c.key != "") {
			t.Errorf("%+v: key %q, err %v; want key %q", c.s, key, err, c.key)
		}
	}
}
