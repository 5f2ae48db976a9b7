package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// Response templates are answers given often, kept as
// .bh/templates/<name>.md; bh respond --template and bh serve offer them.

// ErrTemplateName is a template name that is a path, not a name.
var ErrTemplateName = errors.New("give the name of a template in .bh/templates/, not a path")

// Template is the text of the template name (".md" may be left off),
// trimmed. A missing one is an error wrapping fs.ErrNotExist.
func (s *Store) Template(name string) (string, error) {
	name = strings.TrimSuffix(name, ".md")
	if name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return "", fmt.Errorf("template %q: %w", name, ErrTemplateName)
	}
	b, err := os.ReadFile(filepath.Join(s.Dir, "templates", name+".md"))
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("no template %q: %w", name, fs.ErrNotExist)
	}
	if err != nil {
		return "", fmt.Errorf("template %s: %w", name, err)
	}
	text := task.TrimAnswer(string(b))
	if text == "" {
		return "", fmt.Errorf("template %q is empty", name)
	}
	return text, nil
}

// TemplateNames lists the templates there are, sorted.
func (s *Store) TemplateNames() []string {
	paths, _ := filepath.Glob(filepath.Join(s.Dir, "templates", "*.md"))
	names := make([]string, 0, len(paths))
	for _, p := range paths {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".md"))
	}
	sort.Strings(names)
	return names
}
