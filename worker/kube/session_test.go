package kube

import (
	"strings"
	"testing"
)

// TestValidSession: a session id read from a pod's result is taken only
// as the agents write one: 1-64 letters, digits and dashes.
func TestValidSession(t *testing.T) {
	for s, want := range map[string]bool{
		"0f8e2c1a-5b7d-4e3f-9a21-6c4d8b0e7f13": true,
		"a":                                    true,
		strings.Repeat("a", 64):                true,
		"":                                     false,
		strings.Repeat("a", 65):                false,
		"../../etc/passwd":                     false,
		"id\n--resume":                         false,
		"é":                                    false,
	} {
		if got := validSession(s); got != want {
			t.Errorf("validSession(%q) = %v, want %v", s, got, want)
		}
	}
}
