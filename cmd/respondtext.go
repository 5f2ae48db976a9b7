package cmd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// answerMarker separates the template from the answer. Below it, every
// line is the answer's (a markdown heading too); above it, as in git's
// commit template, every line but the comments.
const answerMarker = "# Write your answer below this line (or anywhere: lines starting with # above it are ignored)."

// answerTemplate is what the editor opens on for bh respond: the task, the
// questions the text answers and their context as comments, then the marker
// line, then prefill (a response template's text) to start the answer from.
func answerTemplate(t *task.Task, qs []task.Question, prefill string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Answering %s: %s\n", t.ID, t.Title)
	for i, q := range qs {
		head := "Question"
		if len(qs) > 1 {
			head = fmt.Sprintf("Question %d", i+1)
		}
		comment(&b, head, q.Question)
		comment(&b, "Context", q.Context)
		var opts []string
		for _, o := range q.Options {
			opts = append(opts, strings.TrimRight("- "+o.Label+": "+o.Description, ": "))
		}
		comment(&b, "Choices", strings.Join(opts, "\n"))
	}
	b.WriteString("#\n# Save and quit to send the answer; an empty answer sends nothing.\n")
	b.WriteString(answerMarker + "\n\n")
	if prefill = task.TrimAnswer(prefill); prefill != "" {
		b.WriteString(prefill + "\n")
	}
	return b.String()
}

// comment writes a titled, indented block of comment lines.
func comment(b *strings.Builder, title, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	fmt.Fprintf(b, "#\n# %s:\n", title)
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(b, "#   %s\n", l)
	}
}

// parseAnswer returns what the human typed in the template, as TrimAnswer
// keeps it: the lines above the marker line that are no comments (vi and
// nano open on line 1), then all below it. A marker removed or changed
// leaves every line that is no comment.
func parseAnswer(text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var typed []string
	for i, l := range lines {
		if strings.TrimSpace(l) == answerMarker {
			typed = append(typed, lines[i+1:]...)
			break
		}
		if !strings.HasPrefix(l, "#") {
			typed = append(typed, l)
		}
	}
	return task.TrimAnswer(strings.Join(typed, "\n"))
}

// answerText reads the answer's text from the argument, stdin ("-") or a
// template, and opens the editor on it with --edit, or for a template on a
// terminal.
func answerText(o *RespondOptions, s *store.Store, t *task.Task, qs []task.Question) (string, draft, error) {
	var text string
	switch {
	case o.HasAnswer && o.Answer == "-":
		b, err := io.ReadAll(o.IO.In)
		if err != nil {
			return "", draft{}, fmt.Errorf("read answer: %w", err)
		}
		text = string(b)
	case o.HasAnswer:
		text = o.Answer
	default: // a template, if any: no name, no text
		var err error
		if text, err = readTemplate(s, o.Template); err != nil {
			return "", draft{}, err
		}
	}
	text = planText(o, qs, text)
	if o.Edit || o.Template != "" && o.IO.IsStdinTTY {
		return editText(o, s, t, qs, text)
	}
	return task.TrimAnswer(text), draft{}, nil
}

// editText opens the editor on the questions qs, below the marker line the
// prefill, and returns what the human wrote below it.
func editText(o *RespondOptions, s *store.Store, t *task.Task, qs []task.Question, prefill string) (string, draft, error) {
	path, rel, b, err := editScratch(o.IO, o.Editor(), s, "respond-"+t.ID+"-*.md", []byte(answerTemplate(t, qs, prefill)))
	if err != nil {
		return "", draft{}, err
	}
	return parseAnswer(string(b)), draft{path, rel}, nil
}

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
