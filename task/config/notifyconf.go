package config

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// NotifyConfig is one notifier and the events it listens to.
type NotifyConfig struct {
	Events  []string `yaml:"events,omitempty" json:"events,omitempty"`
	Command string   `yaml:"command,omitempty" json:"command,omitempty"`
	Webhook string   `yaml:"webhook,omitempty" json:"webhook,omitempty"`
	Desktop bool     `yaml:"desktop,omitempty" json:"desktop,omitempty"`
	Timeout Duration `yaml:"timeout,omitempty" json:"timeout,omitzero"`
	// Format shapes a webhook's body: json (bh's event, the default),
	// slack (an incoming webhook's message) or ntfy (its JSON publishing).
	Format string `yaml:"format,omitempty" json:"format,omitempty"`
}

// The webhook formats.
const (
	FormatJSON  = "json"
	FormatSlack = "slack"
	FormatNtfy  = "ntfy"
)

// notifyFormats are the values format: takes.
var notifyFormats = []string{FormatJSON, FormatSlack, FormatNtfy}

// checkFormat checks a notify entry's format: a known one, on a webhook.
func (c NotifyConfig) checkFormat() error {
	switch {
	case c.Format == "":
		return nil
	case !slices.Contains(notifyFormats, c.Format):
		return fmt.Errorf("%q: want one of %s", c.Format, strings.Join(notifyFormats, ", "))
	case c.Webhook == "":
		return fmt.Errorf("%q shapes a webhook's body, and this entry has no webhook", c.Format)
	}
	return nil
}

// Check says what is wrong with a notify entry, and under which of its
// keys ("" for the entry as a whole).
func (c NotifyConfig) Check() (key string, err error) {
	if err := c.Timeout.Check(); err != nil {
		return "timeout", fmt.Errorf("timeout %q must be a positive duration such as 10s", c.Timeout)
	}
	if len(c.Events) == 0 {
		return "", errors.New(`no events listed (use "*" for all)`)
	}
	for _, ev := range c.Events {
		if !slices.Contains(task.NotifyEvents, ev) {
			return "events", fmt.Errorf("unknown event %q (known: %s)", ev, strings.Join(task.NotifyEvents, ", "))
		}
	}
	if err := c.checkFormat(); err != nil {
		return "format", fmt.Errorf("format %w", err)
	}
	if c.Webhook != "" {
		if err := checkWebhook(c.Webhook, c.Format); err != nil {
			return "webhook", err
		}
	}
	if strings.TrimSpace(c.Command) == "" && c.Webhook == "" && !c.Desktop {
		return "", errors.New("no command, webhook or desktop target")
	}
	return "", nil
}

// checkWebhook checks a webhook's URL: http or https, and for ntfy one
// that names its topic.
func checkWebhook(raw, format string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("webhook must be an http or https URL")
	}
	if topic := path.Base(strings.TrimSuffix(u.Path, "/")); format == FormatNtfy && (topic == "." || topic == "/") {
		return errors.New("an ntfy webhook names its topic: https://ntfy.sh/<topic>")
	}
	return nil
}
