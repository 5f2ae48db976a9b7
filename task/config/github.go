package config

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

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

// check refuses a priority or type that is none of bh's, and the key of
// the label that maps to it.
func (g *GitHubConfig) check() ([]string, error) {
	if g == nil {
		return nil, nil
	}
	if err := checkEmpty(g.Repo, checkRepo); err != nil {
		return []string{"github", "repo"}, err
	}
	for _, label := range slices.Sorted(maps.Keys(g.Priority)) {
		if _, err := task.ParsePriority(g.Priority[label]); err != nil {
			return []string{"github", "priority", label}, err
		}
	}
	for _, label := range slices.Sorted(maps.Keys(g.Type)) {
		if _, err := task.ParseType(g.Type[label]); err != nil {
			return []string{"github", "type", label}, err
		}
	}
	return nil, nil
}

// checkRepo refuses what is not [HOST/]OWNER/REPO (worker/github reads it).
func checkRepo(s string) error {
	parts := strings.Split(s, "/")
	if len(parts) < 2 || len(parts) > 3 || slices.ContainsFunc(parts, func(p string) bool {
		return p == "" || strings.ContainsAny(p, " :@")
	}) {
		return fmt.Errorf("%q: want [HOST/]OWNER/REPO", s)
	}
	return nil
}
