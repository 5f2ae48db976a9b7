package config

import (
	"cmp"
	"fmt"

	"github.com/bh-tracker/bh/task"
)

// GitHubConfig is which issues of a GitHub repository become tasks, and
// what the issue is told as the task goes (worker/github).
type GitHubConfig struct {
	// Repo is [HOST/]OWNER/REPO; default $GH_REPO, else the remote's URL.
	Repo string `yaml:"repo,omitempty" json:"repo,omitempty"`
	// Label picks the open issues that carry it (default bh); Assignee,
	// those assigned to that account as well.
	Label    string `yaml:"label,omitempty" json:"label,omitempty"`
	Assignee string `yaml:"assignee,omitempty" json:"assignee,omitempty"`
	// Priority and Type map an issue's labels to a task's priority (P0–P4)
	// and type; the first label that maps wins.
	Priority map[string]string `yaml:"priority,omitempty" json:"priority,omitempty"`
	Type     map[string]string `yaml:"type,omitempty" json:"type,omitempty"`
	// Close closes the issue when its task lands by merge or branch (a
	// pull request closes it through its Closes #N).
	Close bool `yaml:"close,omitempty" json:"close,omitempty"`
}

// IssueLabel is the label that makes an issue a task.
func (g GitHubConfig) IssueLabel() string { return cmp.Or(g.Label, "bh") }

// check refuses a priority or type that is none of bh's.
func (g *GitHubConfig) check() error {
	if g == nil {
		return nil
	}
	for label, p := range g.Priority {
		if _, err := task.ParsePriority(p); err != nil {
			return fmt.Errorf("label %q: %w", label, err)
		}
	}
	for label, ty := range g.Type {
		if _, err := task.ParseType(ty); err != nil {
			return fmt.Errorf("label %q: %w", label, err)
		}
	}
	return nil
}
