package config

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"time"
)

// Runners: where the worker runs each task it claims.
const (
	RunnerLocal = "local" // here, in a worktree of this clone (the default)
	RunnerK8s   = "k8s"   // in a pod of its own, from an agent-sandbox warm pool
)

// K8sConfig is where runner: k8s takes its pods. Unset fields take the
// defaults of its methods.
type K8sConfig struct {
	Namespace string `yaml:"namespace,omitempty" json:"namespace,omitempty"` // default: the kubeconfig context's (in a pod its own), else bh
	WarmPool  string `yaml:"warmPool,omitempty" json:"warmPool,omitempty"`   // the SandboxWarmPool; default bh-task
	// ClaimTTL is a SandboxClaim's life at most: the cluster deletes it
	// then, whatever its worker does; default 2h.
	ClaimTTL Duration `yaml:"claimTTL,omitempty" json:"claimTTL,omitzero"`
	// BindTimeout is how long a claimed pod may take to take the task
	// over before the task is taken back; default 2m.
	BindTimeout Duration `yaml:"bindTimeout,omitempty" json:"bindTimeout,omitzero"`
	// MaxResult bounds a pod's result (its work, outcome and session, as
	// git packs them): its pod leaves, pushes, and the worker takes no
	// more; default DefaultMaxResult. A size: 256MiB, 1GiB.
	MaxResult string `yaml:"maxResult,omitempty" json:"maxResult,omitempty"`
}

// DefaultMaxResult bounds a task pod's result unless k8s.maxResult says.
const DefaultMaxResult = 256 << 20

// MaxResultOr is the bound on a pod's result, in bytes.
func (k K8sConfig) MaxResultOr() int64 { return sizeOr(k.MaxResult, DefaultMaxResult) }

// Namespaces and pools are Kubernetes names: a DNS label (at most 63
// characters), a DNS subdomain (at most 253). The lengths are checked
// apart: a bounded repetition ({0,251}) compiled at every bh's start cost
// a fifth of a millisecond and 200 KB.
var (
	dnsLabel     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`) })
	dnsSubdomain = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`) })
)

// NamespaceOr is the namespace, bh by default.
func (k K8sConfig) NamespaceOr() string { return cmp.Or(k.Namespace, "bh") }

// WarmPoolOr is the warm pool, bh-task by default.
func (k K8sConfig) WarmPoolOr() string { return cmp.Or(k.WarmPool, "bh-task") }

// ClaimTTLOr is the claims' life at most.
func (k K8sConfig) ClaimTTLOr() time.Duration { return k.ClaimTTL.Or(2 * time.Hour) }

// BindTimeoutOr is how long a pod may take to take its task.
func (k K8sConfig) BindTimeoutOr() time.Duration { return k.BindTimeout.Or(2 * time.Minute) }

// checkRunner checks runner: against the remote it needs.
func checkRunner(c *Config) error {
	switch c.Runner {
	case "", RunnerLocal:
		return nil
	case RunnerK8s:
		if c.Remote == "" {
			return errors.New("k8s needs remote: (its pods share each task through it)")
		}
		if c.AutoSync.D <= 0 {
			return errors.New("k8s needs autoSync: (the worker sees its pods' results, and answers given elsewhere, only when it syncs)")
		}
		return nil
	}
	return fmt.Errorf("%q: want local or k8s", c.Runner)
}

func checkNamespace(ns string) error {
	if len(ns) > 63 || !dnsLabel().MatchString(ns) {
		return fmt.Errorf("%q: want a Kubernetes namespace (lower-case letters, digits and -)", ns)
	}
	return nil
}

func checkPool(pool string) error {
	if len(pool) > 253 || !dnsSubdomain().MatchString(pool) {
		return fmt.Errorf("%q: want a SandboxWarmPool's name (lower-case letters, digits, - and .)", pool)
	}
	return nil
}
