package config

import (
	"testing"
	"time"
)

// TestK8sConfig: runner: and k8s: are checked with the file's line, and
// unset values take their defaults.
func TestK8sConfig(t *testing.T) {
	cases := []struct{ yaml, err string }{
		{"runner: local\n", ""},
		{"remote: origin\nautoSync: 1m\nrunner: k8s\nk8s: {namespace: agents, warmPool: bh-task, claimTTL: 1h, bindTimeout: 90s}\n", ""},
		{"runner: k8s\n", "config.yaml:1: runner: k8s needs remote:"},
		{"remote: origin\nrunner: k8s\n", "config.yaml:2: runner: k8s needs autoSync:"},
		{"remote: origin\nrunner: pods\n", `config.yaml:2: runner: "pods": want local or k8s`},
		{"k8s:\n  namespace: Bad_NS\n", "config.yaml:2: k8s.namespace:"},
		{"k8s:\n  warmPool: -pool\n", "config.yaml:2: k8s.warmPool:"},
		{"k8s:\n  claimTTL: forever\n", "config.yaml:2: k8s.claimTTL:"},
		{"k8s:\n  bindTimeout: soon\n", "config.yaml:2: k8s.bindTimeout:"},
		{"k8s:\n  maxResult: 64MiB\n", ""},
		{"k8s:\n  maxResult: huge\n", `config.yaml:2: k8s.maxResult: "huge": want a size`},
		{"k8s:\n  warmpool: x\n", `unknown key "warmpool" (did you mean "warmPool"?)`},
	}
	loads(t, cases)
	var k K8sConfig
	if k.NamespaceOr() != "bh" || k.WarmPoolOr() != "bh-task" || k.ClaimTTLOr() != 2*time.Hour || k.BindTimeoutOr() != 2*time.Minute {
		t.Errorf("defaults: %s %s %s %s", k.NamespaceOr(), k.WarmPoolOr(), k.ClaimTTLOr(), k.BindTimeoutOr())
	}
	if k.MaxResultOr() != DefaultMaxResult || (K8sConfig{MaxResult: "64MiB"}).MaxResultOr() != 64<<20 {
		t.Errorf("maxResult: %d, %d", k.MaxResultOr(), (K8sConfig{MaxResult: "64MiB"}).MaxResultOr())
	}
}
