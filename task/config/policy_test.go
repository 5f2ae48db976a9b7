package config

import (
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
)

func TestPolicy(t *testing.T) {
	no := false
	for _, c := range []struct {
		name string
		t    task.Task
		c    Config
		want task.HumanPolicy
		err  string
	}{
		{name: "defaults", want: task.HumanPolicy{Allowed: true, Timeout: 24 * time.Hour, OnTimeout: task.OnTimeoutRemind}},
		{name: "config", c: Config{HumanTimeout: ParseDuration("2h"), OnTimeout: "remind", Gate: GateConfig{BelowConfidence: 0.7}},
			want: task.HumanPolicy{Allowed: true, Timeout: 2 * time.Hour, OnTimeout: task.OnTimeoutRemind, BelowConfidence: 0.7}},
		{name: "task wins", t: task.Task{HumanTimeout: "30m", OnTimeout: "defer", Gate: "approval", Human: &no},
			c:    Config{HumanTimeout: ParseDuration("2h"), OnTimeout: "remind"},
			want: task.HumanPolicy{Timeout: 30 * time.Minute, OnTimeout: task.OnTimeoutDefer, Approval: true}},
		{name: "gate none", t: task.Task{Gate: "none"}, c: Config{Gate: GateConfig{BelowConfidence: 0.5}},
			want: task.HumanPolicy{Allowed: true, Timeout: 24 * time.Hour, OnTimeout: task.OnTimeoutRemind, NoGate: true, BelowConfidence: 0.5}},
		{name: "bad values fall back", t: task.Task{ID: "tm-a", HumanTimeout: "soon", OnTimeout: "panic", Gate: "maybe"},
			c:    Config{OnTimeout: "default"},
			want: task.HumanPolicy{Allowed: true, Timeout: 24 * time.Hour, OnTimeout: task.OnTimeoutDefault},
			err:  `tm-a: humanTimeout "soon": want a positive duration such as 24h; onTimeout "panic"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Policy(&c.t, c.c)
			if got != c.want {
				t.Errorf("policy = %+v, want %+v", got, c.want)
			}
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)) {
				t.Errorf("err = %v, want %q", err, c.err)
			}
			if c.err != "" && !strings.Contains(err.Error(), `gate "maybe"`) {
				t.Errorf("err = %v lacks the gate", err)
			}
		})
	}
}
