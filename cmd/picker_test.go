package cmd

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
)

// scripted is a picker that plays back answers and records what it was
// asked: "confirm <title> default=<bool>", "select <title> [values] default=<v>",
// "multi <title> [values]", "input <title>", "edit <title> value=<v>".
type scripted struct {
	answers []any // bool, string or []string, or an error
	asked   []string
}

func (p *scripted) next(call string) (any, error) {
	p.asked = append(p.asked, call)
	if len(p.answers) == 0 {
		return nil, fmt.Errorf("unscripted call: %s", call)
	}
	a := p.answers[0]
	p.answers = p.answers[1:]
	if err, ok := a.(error); ok {
		return nil, err
	}
	return a, nil
}

func values(opts []pickOpt) []string {
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = strings.NewReplacer(pickOther, "OTHER", pickSkip, "SKIP").Replace(o.Value)
	}
	return out
}

func (p *scripted) Confirm(title, _ string, def bool) (bool, error) {
	a, err := p.next(fmt.Sprintf("confirm %s default=%v", title, def))
	b, _ := a.(bool)
	return b, err
}

func (p *scripted) Select(title, _ string, opts []pickOpt, def string) (string, error) {
	a, err := p.next(fmt.Sprintf("select %s %v default=%s", title, values(opts), def))
	s, _ := a.(string)
	return s, err
}

func (p *scripted) MultiSelect(title, _ string, opts []pickOpt) ([]string, error) {
	a, err := p.next(fmt.Sprintf("multi %s %v", title, values(opts)))
	s, _ := a.([]string)
	return s, err
}

func (p *scripted) Input(title, _ string) (string, error) {
	a, err := p.next("input " + title)
	s, _ := a.(string)
	return s, err
}

func (p *scripted) Edit(title, _, value string) (string, error) {
	a, err := p.next(fmt.Sprintf("edit %s value=%s", title, value))
	s, _ := a.(string)
	return s, err
}

func TestAskOne(t *testing.T) {
	approval := task.Question{ID: "q1", Question: "Ship it?", Header: "Ship", Type: "approval", Default: "yes"}
	choice := task.Question{ID: "q2", Question: "Which?", Type: "choice", Default: "B",
		Options: []task.Option{{Label: "A", Description: "first"}, {Label: "B"}}}
	multi := choice
	multi.MultiSelect, multi.Default = true, ""
	words := task.Question{ID: "q3", Question: "When?", Default: "ship it Monday"}
	for _, tc := range []struct {
		name    string
		q       task.Question
		skip    bool
		answers []any
		want    *task.Answer
		asked   []string
	}{
		{"approve", approval, false, []any{true, ""},
			&task.Answer{QuestionID: "q1", Values: []string{"yes"}},
			[]string{"confirm Ship: Ship it? default=true", "input Comment for the agent (optional)"}},
		{"approve with a comment", approval, false, []any{true, "ship it on Friday"},
			&task.Answer{QuestionID: "q1", Values: []string{"yes"}, Comment: "ship it on Friday"},
			[]string{"confirm Ship: Ship it? default=true", "input Comment for the agent (optional)"}},
		{"reject with feedback", approval, false, []any{false, "add tests"},
			&task.Answer{QuestionID: "q1", Values: []string{"no"}, Comment: "add tests"},
			[]string{"confirm Ship: Ship it? default=true", "input Feedback for the agent (optional)"}},
		{"approval may be skipped", approval, true, []any{pickSkip}, nil,
			[]string{"select Ship: Ship it? [yes no SKIP] default=yes"}},
		{"choice", choice, false, []any{"A", ""},
			&task.Answer{QuestionID: "q2", Values: []string{"A"}},
			[]string{"select Which? [A B OTHER] default=B", "input Comment for the agent (optional)"}},
		{"choice with a comment", choice, false, []any{"B", "one file is enough for now"},
			&task.Answer{QuestionID: "q2", Values: []string{"B"}, Comment: "one file is enough for now"},
			[]string{"select Which? [A B OTHER] default=B", "input Comment for the agent (optional)"}},
		{"multi with a comment", multi, false, []any{[]string{"A", "B"}, "both, A first"},
			&task.Answer{QuestionID: "q2", Values: []string{"A", "B"}, Comment: "both, A first"},
			[]string{"multi Which? [A B OTHER]", "input Comment for the agent (optional)"}},
		{"other in own words", choice, true, []any{pickOther, "C, really"},
			&task.Answer{QuestionID: "q2", Values: []string{task.OtherChoice}, Comment: "C, really"},
			[]string{"select Which? [A B OTHER SKIP] default=B", "input Your answer"}},
		{"other left empty skips", choice, false, []any{pickOther, "  "}, nil,
			[]string{"select Which? [A B OTHER] default=B", "input Your answer"}},
		{"multi with other", multi, false, []any{[]string{"B", pickOther}, "D"},
			&task.Answer{QuestionID: "q2", Values: []string{"B", task.OtherChoice}, Comment: "D"},
			[]string{"multi Which? [A B OTHER]", "input Your answer"}},
		{"multi picking nothing skips", multi, false, []any{[]string{}}, nil,
			[]string{"multi Which? [A B OTHER]"}},
		{"words start from the default", words, false, []any{"ship it Friday"},
			&task.Answer{QuestionID: "q3", Values: []string{"ship it Friday"}},
			[]string{"edit When? value=ship it Monday"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &scripted{answers: tc.answers}
			got, err := askOne(p, tc.q, tc.skip)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("answer = %+v, want %+v", got, tc.want)
			}
			if !reflect.DeepEqual(p.asked, tc.asked) || len(p.answers) > 0 {
				t.Errorf("asked %q, want %q (unused answers: %v)", p.asked, tc.asked, p.answers)
			}
		})
	}
	// leaving the picker is an error, never an answer
	p := &scripted{answers: []any{false, ui.ErrAborted}}
	if a, err := askOne(p, approval, false); !errors.Is(err, ui.ErrAborted) || a != nil {
		t.Errorf("aborted feedback: %+v, %v", a, err)
	}
}

// askTask puts the picked answers and the editor's text together, and what
// it returns fits the task: Task.Answer takes it.
func TestAskTaskScripted(t *testing.T) {
	f, _, _ := testFactory()
	s := newTestStore(t)
	tk := &task.Task{ID: "tm-ab12", Title: "Typed", State: task.AwaitingInput, Questions: []task.Question{
		{ID: "q1", Question: "Ship it?", Type: "approval", Status: task.QuestionPending},
		{ID: "q2", Question: "Which?", Type: "choice", Options: []task.Option{{Label: "A"}, {Label: "B"}}, Status: task.QuestionPending},
		{ID: "q3", Question: "Why?", Status: task.QuestionPending},
	}}
	p := &scripted{answers: []any{"no", "too slow", "b", ""}}
	o := &RespondOptions{base: f.base(), Picker: func(*IOStreams) picker { return p },
		Editor: func() string { return `printf 'Because.\n' >>` }}
	rep, err := askTask(o, s, tk, tk.Pending(), true)
	if err != nil {
		t.Fatal(err)
	}
	want := []task.Answer{
		{QuestionID: "q1", Values: []string{"no"}, Comment: "too slow"},
		{QuestionID: "q2", Values: []string{"b"}},
		{QuestionID: "q3", Values: []string{"Because."}},
	}
	if !reflect.DeepEqual(rep.answers, want) {
		t.Fatalf("answers = %+v", rep.answers)
	}
	if err := tk.Answer(rep.answers, f.Now(), "human"); err != nil || tk.State != task.Open {
		t.Fatalf("Answer = %v, state %s", err, tk.State)
	}
	if q := tk.Questions[1]; q.Answer[0] != "B" {
		t.Errorf("q2 answer = %q, want the option's own spelling", q.Answer)
	}
	rep.draft.remove()
}
