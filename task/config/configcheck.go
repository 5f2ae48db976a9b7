package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bh-tracker/bh/task"
	"gopkg.in/yaml.v3"
)

// decodeConfig reads .bh/config.yaml strictly: an unknown key (a typo such
// as agnet:) or a value bh cannot use is an error naming the file and line,
// with a suggestion, rather than a default silently taking its place.
// Every value of the config is checked here, once.
func decodeConfig(path string, b []byte, c *Config) error {
	// The file's nodes say where a wrong value is: read only then, as
	// every bh command loads the config (twice the parse, 0.05 ms).
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) { // EOF: an empty file
		return unknownKeyError(path, err) // or yaml's syntax error, as it is
	}
	nodes := func() *yaml.Node {
		var root yaml.Node
		yaml.Unmarshal(b, &root)
		return &root
	}
	for _, v := range []struct {
		key []string
		err error
	}{
		{[]string{"prefix"}, checkPrefix(c.Prefix)},
		{[]string{"humanTimeout"}, c.HumanTimeout.Check()},
		{[]string{"agent", "timeout"}, c.Agent.Timeout.Check()},
		{[]string{"agent", "outage"}, checkEmpty(c.Agent.Outage, checkPattern)},
		{[]string{"onTimeout"}, checkEmpty(c.OnTimeout, task.ValidOnTimeout)},
		{[]string{"workers"}, checkWorkers(c.Workers)},
		{[]string{"land"}, task.ValidLand(c.Land)},
		{[]string{"target"}, checkEmpty(c.Target, task.ValidBranch)},
		{[]string{"autoSync"}, c.AutoSync.Check()},
		{[]string{"lease"}, c.Lease.Check()},
		{[]string{"remote"}, checkEmpty(c.Remote, validRemote)},
		{[]string{"checkRounds"}, checkRounds(c.CheckRounds)},
		{[]string{"checkTimeout"}, c.CheckTimeout.Check()},
		{[]string{"reviewRounds"}, checkRounds(c.ReviewRounds)},
		{[]string{"sandbox", "mode"}, task.CheckSandboxMode(c.Sandbox.Mode)},
		{[]string{"sandbox", "network"}, c.Sandbox.Network.Check()},
		{[]string{"sandbox", "tmpSize"}, CheckSize(c.Sandbox.TmpSize)},
		{[]string{"sandbox", "memory"}, CheckSize(c.Sandbox.Memory)},
		{[]string{"sandbox", "diskSize"}, CheckSize(c.Sandbox.DiskSize)},
		{[]string{"sandbox", "processes"}, c.Sandbox.CheckProcesses()},
		{[]string{"budget", "perTask"}, task.CheckBudget(c.Budget.PerTask)},
		{[]string{"budget", "perDay"}, task.CheckBudget(c.Budget.PerDay)},
		{[]string{"runner"}, checkRunner(c)},
		{[]string{"k8s", "namespace"}, checkEmpty(c.K8s.Namespace, checkNamespace)},
		{[]string{"k8s", "warmPool"}, checkEmpty(c.K8s.WarmPool, checkPool)},
		{[]string{"k8s", "claimTTL"}, c.K8s.ClaimTTL.Check()},
		{[]string{"k8s", "bindTimeout"}, c.K8s.BindTimeout.Check()},
		{[]string{"k8s", "maxResult"}, CheckSize(c.K8s.MaxResult)},
	} {
		if v.err != nil {
			return configError(path, nodes(), v.key, v.err)
		}
	}
	if err := task.CheckCommands(c.Checks); err != nil { // at the blank entry's own line
		return fmt.Errorf("%s:%d: checks: %w", path, task.KeyLine(nodes(), "checks", strconv.Itoa(task.BlankCheck(c.Checks))), err)
	}
	// agent: takes the values a task's agentSettings take, and is checked the same way.
	agent := task.AgentSettings{Agent: c.Agent.Kind, PermissionMode: c.Agent.PermissionMode,
		Sandbox: c.Agent.Sandbox, Dir: c.Agent.Dir}
	if k, err := agent.Check(); err != nil {
		if k == "agent" {
			k = "kind"
		}
		return configError(path, nodes(), []string{"agent", k}, err)
	}
	for _, typ := range slices.Sorted(maps.Keys(c.Agent.Types)) {
		key := []string{"agent", "types", typ}
		if _, err := task.ParseType(typ); err != nil {
			return configError(path, nodes(), key, err)
		}
		if k, err := c.Agent.Types[typ].Check(); err != nil {
			return configError(path, nodes(), append(key, k), err)
		}
	}
	if key, err := c.GitHub.check(); err != nil {
		return configError(path, nodes(), key, err)
	}
	if typ, err := c.Budget.checkTypes(); err != nil {
		return configError(path, nodes(), []string{"budget", "types", typ}, err)
	}
	for i, n := range c.Notify {
		if k, err := n.Check(); err != nil { // numbered from 1, as the notifier's own errors are
			return fmt.Errorf("%s:%d: notify entry %d: %w", path, task.KeyLine(nodes(), "notify", strconv.Itoa(i), k), i+1, err)
		}
	}
	return nil
}

// checkTypes checks budget.types: each a task type, each an amount;
// the type of the first wrong one.
func (b BudgetConfig) checkTypes() (string, error) {
	for _, typ := range slices.Sorted(maps.Keys(b.Types)) {
		if _, err := task.ParseType(typ); err != nil {
			return typ, err
		}
		if err := task.CheckBudget(b.Types[typ]); err != nil {
			return typ, err
		}
	}
	return "", nil
}

// validRemote refuses what git would read as an option or a path.
func validRemote(r string) error {
	if strings.HasPrefix(r, "-") || strings.ContainsAny(r, " /\\:\t\n") {
		return fmt.Errorf("%q: want the name of a git remote, such as origin", r)
	}
	return nil
}

// configError names the file, the line and the key of a bad value.
func configError(path string, root *yaml.Node, key []string, err error) error {
	return fmt.Errorf("%s:%d: %s: %w", path, task.KeyLine(root, key...), strings.Join(key, "."), err)
}

// checkPattern refuses what Go's regexp cannot compile.
func checkPattern(p string) error {
	_, err := regexp.Compile(p)
	return err
}

func checkEmpty(s string, f func(string) error) error {
	if s == "" {
		return nil
	}
	return f(s)
}

func checkPrefix(p string) error {
	if p != "" && !task.ValidPrefix(p) {
		return fmt.Errorf("%q must be lower-case letters and digits, starting with a letter", p)
	}
	return nil
}

func checkWorkers(n int) error {
	if n < 0 || n > MaxWorkers {
		return fmt.Errorf("%d: want 1 to %d", n, MaxWorkers)
	}
	return nil
}

var unknownField = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`line (\d+): field (\S+) not found in type (\S+)`)
})

// unknownKeyError turns yaml's "field x not found" into file:line and a
// suggestion among the keys bh knows there.
func unknownKeyError(path string, err error) error {
	m := unknownField().FindStringSubmatch(err.Error())
	if m == nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	line, _ := strconv.Atoi(m[1])
	msg := fmt.Sprintf("%s:%d: unknown key %q", path, line, m[2])
	if s := task.NearestKey(m[2], configKeys()[m[3]]); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return errors.New(msg)
}

// configKeys are the keys each part of the config knows, by Go type name.
var configKeys = sync.OnceValue(func() map[string][]string { return task.YAMLKeys(reflect.TypeOf(Config{})) })
