package task

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
	"time"

	"gopkg.in/yaml.v3"
)

// decodeConfig reads .bh/config.yaml strictly: an unknown key (a typo such
// as agnet:) or a value bh cannot use is an error naming the file and line,
// with a suggestion, rather than a default silently taking its place.
// Every value of the config is checked here, once.
func decodeConfig(path string, b []byte, c *Config) error {
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) { // EOF: an empty file
		return unknownKeyError(path, err)
	}
	for _, v := range []struct {
		key []string
		err error
	}{
		{[]string{"prefix"}, checkPrefix(c.Prefix)},
		{[]string{"humanTimeout"}, checkDuration(c.HumanTimeout)},
		{[]string{"agent", "timeout"}, checkDuration(c.Agent.Timeout)},
		{[]string{"onTimeout"}, checkEmpty(c.OnTimeout, ValidOnTimeout)},
		{[]string{"agent", "kind"}, checkOneOf(c.Agent.Kind, AgentKinds)},
		{[]string{"agent", "permissionMode"}, checkOneOf(c.Agent.PermissionMode, PermissionModes)},
		{[]string{"agent", "sandbox"}, checkOneOf(c.Agent.Sandbox, Sandboxes)},
		{[]string{"agent", "dir"}, CheckAgentDir(c.Agent.Dir)},
		{[]string{"workers"}, checkWorkers(c.Workers)},
		{[]string{"land"}, ValidLand(c.Land)},
		{[]string{"reviewRounds"}, checkRounds(c.ReviewRounds)},
		{[]string{"target"}, checkEmpty(c.Target, ValidBranch)},
		{[]string{"autoSync"}, checkDuration(c.AutoSync)},
		{[]string{"lease"}, checkDuration(c.Lease)},
		{[]string{"remote"}, checkEmpty(c.Remote, validRemote)},
	} {
		if v.err != nil {
			return configError(path, &root, v.key, v.err)
		}
	}
	for _, typ := range slices.Sorted(maps.Keys(c.Agent.Types)) {
		key := []string{"agent", "types", typ}
		if _, err := ParseType(typ); err != nil {
			return configError(path, &root, key, err)
		}
		if k, err := c.Agent.Types[typ].Check(); err != nil {
			return configError(path, &root, append(key, k), err)
		}
	}
	for i, n := range c.Notify {
		if err := n.CheckFormat(); err != nil {
			// Numbered from 1, as the worker's own notify errors are.
			return fmt.Errorf("%s:%d: notify entry %d: format %w", path, pathLine(&root, "notify", strconv.Itoa(i), "format"), i+1, err)
		}
	}
	return nil
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
	return fmt.Errorf("%s:%d: %s: %w", path, pathLine(root, key...), strings.Join(key, "."), err)
}

func checkEmpty(s string, f func(string) error) error {
	if s == "" {
		return nil
	}
	return f(s)
}

func checkPrefix(p string) error {
	if p != "" && !ValidPrefix(p) {
		return fmt.Errorf("%q must be lower-case letters and digits, starting with a letter", p)
	}
	return nil
}

func checkDuration(s string) error {
	if s == "" {
		return nil
	}
	if d, err := time.ParseDuration(s); err != nil || d <= 0 {
		return fmt.Errorf("%q: want a positive duration such as 30m or 24h", s)
	}
	return nil
}

func checkWorkers(n int) error {
	if n < 0 || n > MaxWorkers {
		return fmt.Errorf("%d: want 1 to %d", n, MaxWorkers)
	}
	return nil
}

func checkRounds(n int) error {
	if n < 0 || n > 100 {
		return fmt.Errorf("%d: want 1 to 100", n)
	}
	return nil
}

// pathLine is the line of the key at path in the document, 0 if absent.
// A number in path indexes a list.
func pathLine(root *yaml.Node, path ...string) int {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := 0
	for _, key := range path {
		if i, err := strconv.Atoi(key); err == nil && n.Kind == yaml.SequenceNode {
			if i >= len(n.Content) {
				return line
			}
			n = n.Content[i]
			line = n.Line
			continue
		}
		if n.Kind != yaml.MappingNode {
			return line
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				line, n, found = n.Content[i].Line, n.Content[i+1], true
				break
			}
		}
		if !found {
			return line
		}
	}
	return line
}

var unknownField = regexp.MustCompile(`line (\d+): field (\S+) not found in type (\S+)`)

// unknownKeyError turns yaml's "field x not found" into file:line and a
// suggestion among the keys bh knows there.
func unknownKeyError(path string, err error) error {
	m := unknownField.FindStringSubmatch(err.Error())
	if m == nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	line, _ := strconv.Atoi(m[1])
	msg := fmt.Sprintf("%s:%d: unknown key %q", path, line, m[2])
	if s := closest(m[2], configKeys[m[3]]); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return errors.New(msg)
}

// configKeys are the keys each part of the config knows, by Go type name.
var configKeys = yamlKeys(reflect.TypeOf(Config{}))

// yamlKeys lists the YAML keys of t and of the structs in it, by type name.
func yamlKeys(root reflect.Type) map[string][]string {
	out := map[string][]string{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Slice || t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || out[t.String()] != nil {
			return
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if name, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); name != "" && name != "-" {
				out[t.String()] = append(out[t.String()], name)
				walk(f.Type)
			}
		}
	}
	walk(root)
	return out
}

// closest is the known key nearest to key, if near enough to be a typo.
func closest(key string, known []string) string {
	best, bestD := "", len(key)/2+2
	for _, k := range known {
		if d := editDistance(strings.ToLower(key), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
