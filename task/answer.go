package task

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Question types. A question of no known type, or a choice without options,
// is answered in words: its Kind is freeform.
const (
	ApprovalQuestion = "approval"
	ChoiceQuestion   = "choice"
	FreeformQuestion = "freeform"
)

// OtherChoice is the answer value of a choice made in the human's own words
// rather than with an option; the words are the answer's Comment. So Answer
// only ever holds decisions, and Comment is the one place for free text.
const OtherChoice = "other"

// Answer is a human's answer to one pending question.
type Answer struct {
	// QuestionID picks the question; empty means the only one pending.
	QuestionID string
	// Values is "yes" or "no" for an approval; option labels (any case) or
	// OtherChoice for a choice; the one text for a freeform question.
	Values []string
	// Comment is free text beside the decision: a reviewer's feedback on an
	// approval, the words of an "other" choice.
	Comment string
	// Session is the agent session a human took over (bh continue) and
	// said Comment in: the one answer, to every pending question.
	Session string
	// Comments are remarks on lines of the change, beside a no.
	Comments []LineComment
}

// AnswerError is an answer that does not fit its question. It changes
// nothing: Task.Answer checks every answer before it records any.
type AnswerError struct {
	ID, QuestionID string
	// N is the question's number as people see it; 0 when it has none
	// (answered already, or no such question).
	N      int
	Reason string
	// AnsweredBy is set when the question was answered already: by whom
	// (as stored: Who names them for people), and when.
	AnsweredBy string
	AnsweredAt time.Time
}

func (e *AnswerError) Error() string {
	if e.AnsweredBy != "" {
		return fmt.Sprintf("%s: already answered by %s at %s", e.ID, e.AnsweredBy, utcStamp(e.AnsweredAt))
	}
	if e.N == 0 {
		return e.ID + ": " + e.Reason
	}
	return fmt.Sprintf("%s question %d: %s", e.ID, e.N, e.Reason)
}

// Answer records a human's answers to some or all of the questions t waits
// on: each becomes answered, with one input.received event. The task opens
// again, for the worker to resume, once no question is left pending; until
// then it stays awaiting_input. Every answer is checked first, so a bad one
// changes nothing. One answer said in the agent's session (Session) answers
// every pending question, and opens a blocked or failed task too. Call it
// inside Store.Update.
func (t *Task) Answer(ans []Answer, now time.Time, by string) error {
	if len(ans) == 1 && ans[0].Session != "" {
		return t.answerInSession(ans[0].Comment, now, by, ans[0].Session)
	}
	var before map[int]Question // a late answer: the questions as they were
	if t.State != AwaitingInput {
		var err error
		if before, err = t.lateFor(ans); err != nil {
			return err
		}
	}
	if len(ans) == 0 {
		return &AnswerError{ID: t.ID, Reason: "no answer given"}
	}
	pending := t.pending()
	done, err := t.fitAll(pending, ans)
	if err != nil {
		return err
	}
	now = now.UTC()
	t.recordAnswers(pending, done, now, by)
	t.HumanResponse, t.HumanRespondedAt = roundText(t, pending, done), &now
	// A late answer, replacing defaults or answering some of the expired
	// questions: the rest go back as they were (their defaults, or expired
	// for a late answer still to come).
	if t.State == Open || before != nil && len(done) < len(pending) {
		for k, p := range pending {
			if _, ok := done[k]; !ok && p.i >= 0 {
				t.Questions[p.i] = before[p.i]
			}
		}
		return nil
	}
	if len(done) < len(pending) {
		return nil
	}
	return t.SetState(Open, now, by, "answered")
}

// lateFor is late for a task that no longer waits: the questions as they
// were, or why ans comes too late (who answered before, when one did).
func (t *Task) lateFor(ans []Answer) (map[int]Question, error) {
	before, err := t.late()
	if err == nil {
		return before, nil
	}
	if le := (*LateError)(nil); errors.As(err, &le) {
		return nil, err // moved on: that, rather than who answered before
	}
	for _, a := range ans {
		if aerr := t.Answered(a.QuestionID); aerr != nil {
			return nil, aerr
		}
	}
	return nil, err
}

// fitAll checks every answer against its pending question and returns the
// questions answered, by position in pending.
func (t *Task) fitAll(pending []pendingQ, ans []Answer) (map[int]Question, error) {
	done := make(map[int]Question, len(ans))
	for _, a := range ans {
		k, err := t.match(pending, a.QuestionID)
		if err != nil {
			return nil, err
		}
		if _, twice := done[k]; twice {
			return nil, &AnswerError{ID: t.ID, QuestionID: pending[k].q.ID, N: t.number(pending[k].q.ID), Reason: "answered twice"}
		}
		q, reason := fit(pending[k].q, a)
		if reason != "" {
			return nil, &AnswerError{ID: t.ID, QuestionID: q.ID, N: t.number(q.ID), Reason: reason}
		}
		done[k] = q
	}
	return done, nil
}

// recordAnswers marks the questions answered, each with its event, in the
// order asked, not the order given.
func (t *Task) recordAnswers(pending []pendingQ, done map[int]Question, now time.Time, by string) {
	for k, p := range pending {
		q, ok := done[k]
		if !ok {
			continue
		}
		q.Status, q.AnsweredAt = QuestionAnswered, new(now)
		if p.i >= 0 {
			t.Questions[p.i] = q
		}
		t.Record(now, Event{Kind: EventInputReceived, By: by, QuestionID: q.ID, Text: q.AnswerText(),
			Comments: q.Comments})
	}
}

// match finds the pending question an answer is for.
func (t *Task) match(pending []pendingQ, id string) (int, error) {
	found := -1
	for k, p := range pending {
		if id == "" && len(pending) == 1 || id != "" && p.q.ID == id {
			if found >= 0 {
				return 0, &AnswerError{ID: t.ID, QuestionID: id, N: t.number(id),
					Reason: "several pending questions share this id; give each its own with bh edit"}
			}
			found = k
		}
	}
	if found >= 0 {
		return found, nil
	}
	ids := make([]string, len(pending))
	for k, p := range pending {
		ids[k] = p.q.ID
	}
	if id == "" {
		return 0, &AnswerError{ID: t.ID, Reason: "say which question the answer is for: it waits on " + t.Numbers(ids)}
	}
	if err := t.Answered(id); err != nil {
		return 0, err
	}
	return 0, &AnswerError{ID: t.ID, QuestionID: id,
		Reason: "no such pending question (it waits on " + t.Numbers(ids) + ")"}
}

// Answered is the error for an answer to question qid when it has been
// answered already (by whom, and when), so that a second answer, from
// another terminal or the web, never replaces the first; nil otherwise.
// qid "" is the question the task asked last.
func (t *Task) Answered(qid string) error {
	if qid == "" {
		e, ok := t.LastAsked()
		if !ok || e.QuestionID == "" {
			return nil
		}
		qid = e.QuestionID
	}
	if slices.ContainsFunc(t.Questions, func(q Question) bool { return q.ID == qid && q.Status == QuestionPending }) {
		return nil
	}
	e, ok := t.LastAnswer(qid)
	if !ok {
		return nil
	}
	return &AnswerError{ID: t.ID, QuestionID: qid, AnsweredBy: cmp.Or(e.By, "someone"), AnsweredAt: e.At}
}
