// Package prompts renders the text bh hands a coding agent: an embedded
// preamble (the result contract), one template per task type (each ends
// with the asking partial: when to ask and what makes a good question),
// and the resume prompt that carries a human's answers. Any template
// can be overridden by a file of the same name in .bh/prompts/.
package prompts

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/template"
)

//go:embed templates/*.md
var builtin embed.FS

// Ref names a related task.
type Ref struct{ ID, Title string }

// Dep is a finished dependency and what its agent reported.
type Dep struct{ ID, Title, Summary string }

// Round is one question with its answer, in the order asked, and the
// reviewer's comments on lines of the change given with it.
type Round struct {
	Header, Question, Context, Answer string
	Comments                          []Comment
	// Earlier: asked in a run before the latest, and answered then; its
	// comments' lines are of that round's change, not of the work now.
	Earlier bool
}

// Comment is a reviewer's remark on one line of a file of the change.
type Comment struct {
	Path string
	Line int
	Text string
}

// Data is everything a template may use. It is plain data: prompts knows
// nothing of how tasks are stored.
type Data struct {
	ID, Title, Description string
	Type, Priority, Size   string
	Parent                 *Ref
	Deps                   []Dep
	Rounds                 []Round
	Feedback               string
	Check                  *Check // the failing check a resumed session is asked to fix
	// Review is the pull request's feedback (failed checks with their
	// logs, review comments with file and line, a conflict) that resumes
	// a task in review, and PR its URL.
	Review, PR string
	// Plan is the plan a human approved (plan: true), as they edited it
	// when PlanEdited.
	Plan       string
	PlanEdited bool
}

// Check is a check that failed on the tree that would land.
type Check struct {
	Command       string
	ExitCode      int
	Output        string // the tail of its output
	Round, Rounds int
}

// Types are the task types with a template of their own.
var Types = []string{"code", "design", "review", "test", "docs"}

// Set renders prompts, preferring files in Dir (usually .bh/prompts).
type Set struct{ Dir string }

// Task is the first prompt of a task: the preamble, then its type's part.
func (s Set) Task(d Data) (string, error) {
	pre, err := s.render("preamble", d)
	if err != nil {
		return "", err
	}
	typ := d.Type
	if typ == "" {
		typ = "code"
	}
	body, err := s.render(typ, d)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(pre) + "\n\n" + strings.TrimSpace(body) + "\n", nil
}

// Contract is the result contract (the preamble) and when to ask, which
// Claude Code also gets as --append-system-prompt, so that they hold on
// every turn.
func (s Set) Contract(d Data) (string, error) {
	pre, err := s.render("preamble", d)
	if err != nil {
		return "", err
	}
	ask, err := s.render("asking", d)
	return strings.TrimSpace(pre) + "\n\n" + strings.TrimSpace(ask) + "\n", err
}

// Nudge asks an agent whose final answer held no result object for one.
func Nudge(id, title string) string {
	return fmt.Sprintf("Task %s (%s): your last answer did not end with the result object bh needs. "+
		"Reply now with only the result object (status, summary, and with needs_input the question), "+
		"through the StructuredOutput tool if you have it, otherwise as one JSON object in a ```json block. "+
		"Do not redo any work.", id, title)
}

// Resume is the prompt that continues the same agent session after a human
// answered (or a reviewer rejected the result).
func (s Set) Resume(d Data) (string, error) {
	out, err := s.render("resume", d)
	return strings.TrimSpace(out) + "\n", err
}

// Planning is what a planning run (plan: true) is told after its task or
// resume prompt: change nothing, ask now, and end with a plan.
func (s Set) Planning(d Data) (string, error) {
	out, err := s.render("plan", d)
	return strings.TrimSpace(out) + "\n", err
}

// Implement is the prompt that resumes a planning session once a human
// approved its plan: carry out d.Plan.
func (s Set) Implement(d Data) (string, error) {
	out, err := s.render("implement", d)
	return strings.TrimSpace(out) + "\n", err
}

// CheckFailed is the prompt that resumes the same session after a check
// failed on its finished work: d.Check says which, and how.
func (s Set) CheckFailed(d Data) (string, error) {
	out, err := s.render("check_failed", d)
	return strings.TrimSpace(out) + "\n", err
}

// Review is the prompt that resumes the same session with its pull
// request's feedback.
func (s Set) Review(d Data) (string, error) {
	out, err := s.render("pr_feedback", d)
	return strings.TrimSpace(out) + "\n", err
}

func (s Set) render(name string, d Data) (string, error) {
	t := template.New(name).Funcs(template.FuncMap{"inc": func(i int) int { return i + 1 }})
	// The partials every template may include: the task's context, and
	// when and how to ask (asking.md, in every type's template).
	for _, n := range []string{"context", "asking", name} {
		src, err := s.source(n)
		if err != nil {
			return "", err
		}
		if _, err := t.New(n).Parse(src); err != nil {
			return "", fmt.Errorf("prompt %s: %w", n, err)
		}
	}
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, name, d); err != nil {
		return "", fmt.Errorf("prompt %s: %w", name, err)
	}
	return b.String(), nil
}

// source is the override file when there is one, else the built-in.
func (s Set) source(name string) (string, error) {
	if s.Dir != "" {
		b, err := os.ReadFile(filepath.Join(s.Dir, name+".md"))
		if err == nil {
			return string(b), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("prompt override: %w", err)
		}
	}
	b, err := builtin.ReadFile("templates/" + name + ".md")
	if err != nil {
		return "", fmt.Errorf("no prompt template %q", name)
	}
	return string(b), nil
}
