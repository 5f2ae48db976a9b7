package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// readTemplate returns the text of the response template .bh/templates/
// <name>.md; no name, no text.
func readTemplate(s *task.Store, name string) (string, error) {
	if name == "" {
		return "", nil
	}
	name = strings.TrimSuffix(name, ".md")
	if name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return "", usageErrorf("--template %q: give the name of a template in .bh/templates/, not a path", name)
	}
	b, err := os.ReadFile(filepath.Join(s.Dir, "templates", name+".md"))
	if errors.Is(err, os.ErrNotExist) {
		have := templateNames(s)
		if len(have) == 0 {
			return "", withHint(fmt.Errorf("no template %q: .bh/templates/ holds none", name),
				"write one as .bh/templates/<name>.md: its text is the answer")
		}
		return "", withHint(fmt.Errorf("no template %q (available: %s)", name, strings.Join(have, ", ")),
			"templates are the files .bh/templates/<name>.md")
	}
	if err != nil {
		return "", fmt.Errorf("template %s: %w", name, err)
	}
	text := strings.TrimSpace(string(b))
	if text == "" {
		return "", fmt.Errorf("template %q is empty", name)
	}
	return text, nil
}

// templateNames lists the templates there are, sorted.
func templateNames(s *task.Store) []string {
	paths, _ := filepath.Glob(filepath.Join(s.Dir, "templates", "*.md"))
	names := make([]string, 0, len(paths))
	for _, p := range paths {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".md"))
	}
	sort.Strings(names)
	return names
}
