package task

import "strings"

// Kind is how the question is answered: approval, choice or freeform.
func (q *Question) Kind() string {
	switch {
	case strings.EqualFold(q.Type, ApprovalQuestion):
		return ApprovalQuestion
	case strings.EqualFold(q.Type, ChoiceQuestion) && len(q.Options) > 0:
		return ChoiceQuestion
	}
	return FreeformQuestion
}

// AnswerText is the answer in words, for prompts, history and the flat
// humanResponse: the decision, then the comment ("no: add tests",
// "other: use GitLab").
func (q *Question) AnswerText() string {
	text := strings.Join(q.Answer, ", ")
	switch {
	case q.Comment == "":
		return text
	case text == "":
		return q.Comment
	}
	return text + ": " + q.Comment
}

// Labels are the labels of the question's options.
func (q *Question) Labels() []string {
	out := make([]string, len(q.Options))
	for i, o := range q.Options {
		out[i] = o.Label
	}
	return out
}

// Pending lists the questions t waits on, in the order asked. A task
// awaiting input with no pending typed question (written by hand or by an
// older bh) waits on its flat question, given as one freeform question with
// the id its input.requested event carried.
func (t *Task) Pending() []Question {
	var out []Question
	for _, p := range t.pending() {
		out = append(out, p.q)
	}
	return out
}

// OpenQuestions are what t waits for (Pending), with a stand-in for a
// flat question the agent left empty: what people are shown.
func (t *Task) OpenQuestions() []Question {
	qs := t.Pending()
	for i := range qs {
		if strings.TrimSpace(qs[i].Question) == "" {
			qs[i].Question = "(the agent asked no question)"
		}
	}
	return qs
}

// pendingQ is a pending question and its index in t.Questions, or -1 for
// the flat question, which is not stored there.
type pendingQ struct {
	q Question
	i int
}

func (t *Task) pending() []pendingQ {
	var out []pendingQ
	for i, q := range t.Questions {
		if q.Status == QuestionPending {
			out = append(out, pendingQ{q, i})
		}
	}
	if len(out) == 0 && t.State == AwaitingInput {
		q := Question{Question: t.Question, Context: t.QuestionContext, Type: FreeformQuestion,
			Status: QuestionPending, AskedAt: t.UpdatedAt}
		if e, ok := t.LastAsked(); ok {
			q.ID, q.AskedAt = e.QuestionID, e.At
		}
		out = append(out, pendingQ{q, -1})
	}
	return out
}

// QuestionByID is the question of t whose ID is id; nil when t has none.
func (t *Task) QuestionByID(id string) *Question {
	for i := range t.Questions {
		if t.Questions[i].ID == id {
			return &t.Questions[i]
		}
	}
	return nil
}
