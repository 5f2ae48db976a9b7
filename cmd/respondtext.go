package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// answerMarker separates the template from the answer; only text below it
// is sent.
const answerMarker = "# Write your answer below this line. Lines above it are ignored."

var errNoMarker = errors.New("the answer marker line was removed, so bh cannot tell your answer from the question")

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
		if q.ID != "" {
			head += " (" + q.ID + ")"
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
	if prefill = strings.TrimSpace(prefill); prefill != "" {
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

// parseAnswer returns the text below the marker line, trimmed.
func parseAnswer(text string) (string, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == answerMarker {
			return strings.TrimSpace(strings.Join(lines[i+1:], "\n")), nil
		}
	}
	return "", errNoMarker
}
