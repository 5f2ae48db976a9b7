package cmd

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// targets are the questions an answer goes to: all pending ones, or the one
// --question names by id or by its number (as bh status shows it).
func targets(t *task.Task, sel string) ([]task.Question, error) {
	qs := t.Pending()
	if sel == "" {
		return qs, nil
	}
	n, nerr := strconv.Atoi(sel)
	for _, q := range t.Numbered() {
		if q.Q.ID != "" && strings.EqualFold(q.Q.ID, sel) || nerr == nil && q.N == n {
			return []task.Question{q.Q}, nil
		}
	}
	if err := answeredNumber(t, n); nerr == nil && err != nil {
		return nil, withHint(err, pendingHint(t))
	}
	return nil, withHint(usageErrorf("--question %s: %s has no such pending question", sel, t.ID), pendingHint(t))
}

// answeredNumber is why --question n is refused when question n of the
// round that waits was answered already: by whom, and when.
func answeredNumber(t *task.Task, n int) error {
	open := t.OpenQuestions()
	for _, q := range t.Questions {
		if len(open) > 0 && q.Status == task.QuestionAnswered && q.AskedAt.Equal(open[0].AskedAt) && t.AskedNumber(q.ID) == n {
			return t.Answered(q.ID)
		}
	}
	return nil
}

// fromFlags turns the flags and the answer text into answers. Text beside a
// decision (--yes, --no, --choice) is its comment; alone, it answers the
// freeform questions.
func fromFlags(o *RespondOptions, s *store.Store, t *task.Task, qs []task.Question) (*reply, error) {
	rep := &reply{byFlags: true, by: o.by}
	var err error
	if rep.answers, err = flagDecisions(o, t, qs); err != nil {
		return nil, err
	}
	comments, err := lineComments(o.Comments, o.No)
	if err != nil {
		return nil, err
	}
	if len(comments) > 0 {
		rep.answers[0].Comments = comments // --no's answer: lineComments requires it, flagDecisions puts it first
	}
	if err := dryRun(t, rep.answers); err != nil {
		return nil, err
	}
	if !o.wrote() {
		if len(rep.answers) == 0 {
			return nil, withHint(usageErrorf("no answer given: pass it as an argument, \"-\" to read it from stdin, or use --edit"), pendingHint(t))
		}
		return rep, nil
	}
	textFor, err := textTargets(t, qs, rep.answers)
	if err != nil {
		return nil, err
	}
	text, d, err := answerText(o, s, t, textFor)
	if err != nil {
		return nil, err
	}
	rep.draft = d
	// an editor left empty sends nothing, as its template says; so do empty words
	if text == "" && (d.path != "" || len(rep.answers) == 0) {
		d.remove()
		return nil, errEmpty
	}
	if len(rep.answers) > 0 {
		rep.answers[0].Comment = text
		return rep, nil
	}
	for _, q := range textFor {
		rep.answers = append(rep.answers, task.Answer{QuestionID: q.ID, Values: []string{text}})
	}
	return rep, nil
}

// flagDecisions are the answers --yes, --no, --choice and --other give.
func flagDecisions(o *RespondOptions, t *task.Task, qs []task.Question) ([]task.Answer, error) {
	var answers []task.Answer
	if o.Yes || o.No {
		q, err := one(t, ofKind(qs, task.ApprovalQuestion), task.ApprovalQuestion, "--yes and --no answer")
		if err != nil {
			return nil, err
		}
		v := "no"
		if o.Yes {
			v = "yes"
		}
		answers = append(answers, task.Answer{QuestionID: q.ID, Values: []string{v}})
	}
	if len(o.Choices) > 0 || o.HasOther {
		q, err := one(t, accepting(ofKind(qs, task.ChoiceQuestion), o.Choices), task.ChoiceQuestion, "--choice and --other answer")
		if err != nil {
			return nil, err
		}
		a := task.Answer{QuestionID: q.ID, Values: slices.Clone(o.Choices)}
		if o.HasOther {
			a.Values, a.Comment = append(a.Values, task.OtherChoice), o.Other
		}
		answers = append(answers, a)
	}
	return answers, nil
}

// textTargets are the questions the answer text goes to: the comment of the
// one decision given, or else the freeform questions.
func textTargets(t *task.Task, qs []task.Question, decisions []task.Answer) ([]task.Question, error) {
	words := ofKind(qs, task.FreeformQuestion)
	switch {
	case len(decisions) > 1:
		// Pinned on one of them, the words would comment on what the human did not mean.
		return nil, withHint(usageErrorf("the answer text comments on one decision, and --yes or --no and --choice or --other make two"),
			"answer each with its own bh respond "+t.ID+" --question N, the text beside the decision it comments on")
	case len(decisions) > 0:
		return []task.Question{find(qs, decisions[0].QuestionID)}, nil
	case len(words) == 0:
		return nil, withHint(&usageError{&task.TypedQuestionsError{ID: t.ID, Questions: qs}}, pendingHint(t))
	}
	return words, nil
}

// accepting narrows choice questions to those that offer every label, when
// that leaves one: the labels then say which question they answer.
func accepting(qs []task.Question, labels []string) []task.Question {
	var out []task.Question
	for _, q := range qs {
		ok := true
		for _, l := range labels {
			ok = ok && slices.ContainsFunc(q.Labels(), func(o string) bool { return strings.EqualFold(o, strings.TrimSpace(l)) })
		}
		if ok {
			out = append(out, q)
		}
	}
	if len(out) == 1 && len(labels) > 0 {
		return out
	}
	return qs
}

// one is the single question of kind, among of, that a flag answers.
func one(t *task.Task, of []task.Question, kind, flags string) (task.Question, error) {
	switch len(of) {
	case 1:
		return of[0], nil
	case 0:
		return task.Question{}, withHint(usageErrorf("%s %s questions, and %s waits on none here", flags, kind, t.ID), pendingHint(t))
	}
	return task.Question{}, withHint(usageErrorf("%s waits on %d %s questions: say which with --question", t.ID, len(of), kind), pendingHint(t))
}

// dryRun checks the flags' decisions on a copy of the task, so that a bad
// one is refused before the editor opens for the comment.
func dryRun(t *task.Task, ans []task.Answer) error {
	if len(ans) == 0 {
		return nil
	}
	c := *t
	c.Questions, c.History = slices.Clone(t.Questions), slices.Clone(t.History)
	// t may be a late answer's copy (Answerable), whose questions wait
	// again already: the decisions are checked as if it were waiting.
	c.State = task.AwaitingInput
	if err := c.Answer(ans, c.UpdatedAt, "human"); err != nil {
		return withHint(&usageError{err}, pendingHint(t))
	}
	return nil
}

// planFlags reads the flags for a plan among qs (a planning run's): --edit
// alone approves it as edited (answerText opens it in the editor), and a
// yes takes no words, which would replace the plan.
func planFlags(o *RespondOptions, t *task.Task, qs []task.Question) error {
	switch plans := len(ofPlan(qs)); {
	case plans == 1 && o.Edit && !o.decided():
		o.Yes = true
	case plans > 0 && o.Yes && !o.Edit && (o.HasAnswer || o.Template != ""):
		return withHint(usageErrorf("a yes to a plan takes no words: they would replace the plan"),
			"bh respond "+t.ID+" --edit edits the plan and approves it; --no TEXT sends it back with TEXT")
	}
	return nil
}

// planText is the text the editor opens with for qs, given text: a plan
// approved with --edit opens as it is, to edit in place.
func planText(o *RespondOptions, qs []task.Question, text string) string {
	if p := ofPlan(qs); o.Edit && o.Yes && text == "" && len(p) == 1 {
		return p[0].Plan
	}
	return text
}

// ofPlan are the plan questions among qs (a planning run's plan).
func ofPlan(qs []task.Question) []task.Question {
	var out []task.Question
	for _, q := range qs {
		if q.Plan != "" {
			out = append(out, q)
		}
	}
	return out
}

func ofKind(qs []task.Question, kind string) []task.Question {
	var out []task.Question
	for _, q := range qs {
		if q.Kind() == kind {
			out = append(out, q)
		}
	}
	return out
}

func find(qs []task.Question, id string) task.Question {
	for _, q := range qs {
		if q.ID == id {
			return q
		}
	}
	return task.Question{}
}

// pendingHint lists the questions t waits on, numbered for --question, and
// the flags that answer each kind.
func pendingHint(t *task.Task) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s waits on:", t.ID)
	for _, q := range t.Numbered() {
		fmt.Fprintf(&b, "\n  %d  %s", q.N, firstLine(q.Q.Question))
		if note := ui.KindNote(q.Q); note != "" {
			b.WriteString("  " + note)
		}
		if labels := q.Q.Labels(); len(labels) > 0 && q.Q.Kind() == task.ChoiceQuestion {
			b.WriteString(" " + strings.Join(labels, ", "))
		}
	}
	b.WriteString("\nanswer approvals with --yes or --no, choices with --choice LABEL or --other TEXT, the rest with the answer text")
	return b.String()
}
