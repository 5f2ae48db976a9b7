package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/bh-tracker/bh/task/store"
)

// readTemplate returns the text of the response template .bh/templates/
// <name>.md; no name, no text. Its errors say what to do.
func readTemplate(s *store.Store, name string) (string, error) {
	if name == "" {
		return "", nil
	}
	text, err := s.Template(name)
	name = strings.TrimSuffix(name, ".md")
	switch {
	case errors.Is(err, store.ErrTemplateName):
		return "", usageErrorf("--template %q: give the name of a template in .bh/templates/, not a path", name)
	case errors.Is(err, fs.ErrNotExist):
		have := s.TemplateNames()
		if len(have) == 0 {
			return "", withHint(fmt.Errorf("no template %q: .bh/templates/ holds none", name),
				"write one as .bh/templates/<name>.md: its text is the answer")
		}
		return "", withHint(fmt.Errorf("no template %q (available: %s)", name, strings.Join(have, ", ")),
			"templates are the files .bh/templates/<name>.md")
	}
	return text, err
}
