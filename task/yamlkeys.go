package task

// The helpers below turn a YAML file's mistakes into file:line errors with
// a suggestion; task files use them, and task/config uses them for
// .bh/config.yaml.

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// ParseDuration reads a positive duration such as 30m; nothing is zero.
func ParseDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q: want a positive duration such as 30m or 24h", s)
	}
	return d, nil
}

// CheckDuration accepts a positive duration such as 30m, or nothing.
func CheckDuration(s string) error {
	_, err := ParseDuration(s)
	return err
}

// KeyLine is the line of the key at path in the document, 0 if absent.
// A number in path indexes a list.
func KeyLine(root *yaml.Node, path ...string) int {
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

// YAMLKeys lists the YAML keys of t and of the structs in it, by type name.
func YAMLKeys(root reflect.Type) map[string][]string {
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

// NearestKey is the known key nearest to key, if near enough to be a typo.
func NearestKey(key string, known []string) string {
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
