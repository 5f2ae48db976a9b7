package config

import (
	"cmp"
	"time"

	"github.com/bh-tracker/bh/task"
	"gopkg.in/yaml.v3"
)

// Duration is a duration of the config, such as 30m or 24h, read once
// when the config is: D is zero when unset, and a value bh cannot use
// keeps its text for Check, which Load calls, to report at its line.
type Duration struct {
	D    time.Duration
	text string
	err  error
}

// ParseDuration reads s as the config reads a duration.
func ParseDuration(s string) Duration {
	d, err := task.ParseDuration(s)
	return Duration{D: d, text: s, err: err}
}

// UnmarshalYAML reads a scalar; anything else is yaml's type error, as
// for any other string of the config.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err != nil {
		return err
	}
	*d = ParseDuration(s)
	return nil
}

// Check says what is wrong with the value.
func (d Duration) Check() error { return d.err }

// Or is the duration, or def when it is unset.
func (d Duration) Or(def time.Duration) time.Duration { return cmp.Or(d.D, def) }

// IsZero reports an unset value.
func (d Duration) IsZero() bool { return d.text == "" }

// String is the value as written.
func (d Duration) String() string { return d.text }
