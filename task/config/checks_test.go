package config

import (
	"strings"
	"testing"
	"time"
)

// TestCheckTimeout: checkTimeout defaults to 10m, takes a duration, and a
// bad one is refused with the file and line when the config is read.
func TestCheckTimeout(t *testing.T) {
	for _, tt := range []struct {
		name, yaml string
		want       time.Duration
		err        string
	}{
		{"absent", "prefix: tm\n", DefaultCheckTimeout, ""},
		{"set", "prefix: tm\ncheckTimeout: 2s\n", 2 * time.Second, ""},
		{"not a duration", "prefix: tm\nchecks: [make test]\ncheckTimeout: soon\n", 0,
			`config.yaml:3: checkTimeout: "soon": want a positive duration`},
		{"negative", "checkTimeout: -1m\n", 0, `config.yaml:1: checkTimeout: "-1m"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := loadYAML(t, tt.yaml)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := c.CheckLimit(); got != tt.want {
				t.Errorf("CheckLimit() = %s, want %s", got, tt.want)
			}
		})
	}
}
