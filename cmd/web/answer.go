package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/cmd/undo"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/act"
)

// answer takes a task's form: the answers to one or more of its
// questions, all at once. They go through act.Answer, as bh respond's
// do: the same checks (every answer checked before any is recorded), the
// same history and input.received, with the answerer recorded as
// web:<user>. A refused answer shows the page again with why, and with
// what was typed kept in the form.
func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bh serve: "+err.Error(), http.StatusBadRequest)
		return
	}
	if !s.sameOrigin(r) {
		http.Error(w, "bh serve: refused: the form did not come from this server's page (reload it and answer again)",
			http.StatusForbidden)
		return
	}
	st, err := s.store(r.PathValue("repo"))
	if err != nil {
		v, code := s.taskView(r)
		s.render(w, r, code, "task", v.Title, v)
		return
	}
	id, err := st.Resolve(r.PathValue("id"))
	var t *task.Task
	var ans []task.Answer
	step := undo.Record
	if err == nil {
		if ans, err = formAnswers(id, r.PostForm); err == nil {
			err = act.CheckComments(st, id, ans) // now, not when a held answer's window ends
		}
		if err == nil {
			step = s.decide(st, id, ans, r.PostForm)
		}
		if err == nil && step == undo.Record {
			t, err = act.Answer(st, id, ans, s.o.By, s.o.Warnf)
		}
	}
	switch {
	case step == undo.AskFirst, step == undo.AskWhy:
		v, code := s.taskView(r)
		v.Confirm, v.ConfirmReject, v.Kept = step == undo.AskFirst, step == undo.AskWhy, r.PostForm
		s.render(w, r, code, "task", v.Title, v)
		return
	case step == undo.HoldBack:
		s.hold(r.PathValue("repo"), id, func() error { _, err := act.Answer(st, id, ans, s.o.By, s.o.Warnf); return err })
		u := url.URL{Path: "/r/" + url.PathEscape(r.PathValue("repo")) + "/t/" + url.PathEscape(id)}
		http.Redirect(w, r, u.String(), http.StatusSeeOther)
		return
	case err == nil:
		var qids []string
		for _, a := range ans {
			qids = append(qids, a.QuestionID)
		}
		u := url.URL{Path: "/r/" + url.PathEscape(r.PathValue("repo")) + "/t/" + url.PathEscape(t.ID),
			RawQuery: url.Values{"answered": {strings.Join(qids, ",")}}.Encode()}
		http.Redirect(w, r, u.String(), http.StatusSeeOther)
		return
	}
	v, code := s.taskView(r)
	if code == http.StatusOK {
		code = answerStatus(err)
	}
	v.Error, v.Kept = v.plain(err), r.PostForm
	s.render(w, r, code, "task", v.Title, v)
}

// formAnswers reads a task's form: a q field names each question the
// form holds, and each question's fields are named after it (answer.q1,
// comment.q1); a form of one question may leave the suffix out. A
// question left alone in a form of several (its default untouched
// included) is not answered now; when every one is left alone, all are
// answered as they are, so that what is missing is said.
func formAnswers(id string, f url.Values) ([]task.Answer, error) {
	qids := f["q"]
	var all, picked []task.Answer
	for _, qid := range qids {
		one := url.Values{"q": {qid}}
		for _, name := range []string{"answer", "other", "comment", "text", "lc", "default", "plan"} {
			if v, ok := f[name+"."+qid]; ok {
				one[name] = v
			} else if len(qids) == 1 {
				one[name] = f[name]
			}
		}
		a, err := formAnswer(id, one)
		if err != nil {
			return nil, err
		}
		all = append(all, a)
		if given(a, one) {
			picked = append(picked, a)
		}
	}
	if len(picked) == 0 {
		return all, nil
	}
	return picked, nil
}

// given says whether the human gave answer a: something picked or typed
// other than the question's default, which the page shows filled in
// (its default field) and which counts only when the whole form is sent
// as it is.
func given(a task.Answer, f url.Values) bool {
	typed := strings.TrimSpace(a.Comment) != "" || strings.TrimSpace(f.Get("other")) != "" || len(a.Comments) > 0
	untouched := len(a.Values) == 1 && f.Get("default") != "" && a.Values[0] == f.Get("default")
	return typed || len(a.Values) > 0 && !untouched
}

// formAnswer reads one question's answer from its fields:
//
//	q        the question's id
//	answer   the decision: yes or no, the options picked, "other"
//	other    Other's own words, which count only when Other is picked
//	comment  a comment beside the decision (an approval's feedback)
//	text     the answer in words, for a freeform question
//	lc       comments on lines of the diff, each {"path","line","text"} in JSON
//	plan     a planning run's plan, as the human edited it in place: a
//	         yes approves this text (the answer's comment, task/plan)
//
// Picking an option never becomes Other. Other's words are the answer's
// Comment (task.OtherChoice); a comment given as well follows them on a
// line of its own, so that nothing typed is lost. Other without words of
// its own, and words for Other without Other picked, are refused rather
// than guessed at or dropped. Browsers send line breaks as CRLF: they are
// the human's LF again, so the text reaches the agent as typed.
func formAnswer(id string, f url.Values) (task.Answer, error) {
	field := func(name string) string { return strings.ReplaceAll(f.Get(name), "\r\n", "\n") }
	a := task.Answer{QuestionID: f.Get("q"), Values: f["answer"], Comment: field("comment")}
	a.Comment = planEdited(a, field("plan"))
	if text := field("text"); strings.TrimSpace(text) != "" {
		a.Values = append(a.Values, text)
	}
	for _, lc := range f["lc"] { // a comment on a line of the diff, as the page's script wrote it
		var c task.LineComment
		if err := json.Unmarshal([]byte(lc), &c); err != nil {
			return a, &task.AnswerError{ID: id, QuestionID: a.QuestionID, Reason: "a comment on a line that cannot be read: " + err.Error()}
		}
		a.Comments = append(a.Comments, c)
	}
	words, other := strings.TrimSpace(field("other")), slices.Contains(a.Values, task.OtherChoice)
	switch {
	case other && words != "":
		a.Comment = strings.TrimSpace(words + "\n" + strings.TrimSpace(a.Comment)) // a comment, if any, on a line of its own
	case other:
		a.Comment = "" // Other is answered in its own box, not the comment's
	case words != "":
		return a, &task.AnswerError{ID: id, QuestionID: a.QuestionID,
			Reason: "you wrote words for Other but did not pick Other: pick it, or clear its box (a comment goes in the comment box)"}
	}
	return a, nil
}

// planEdited is answer a's comment, given the plan as the human left it
// in place: a yes approves that text.
func planEdited(a task.Answer, plan string) string {
	if strings.TrimSpace(plan) != "" && slices.Equal(a.Values, []string{"yes"}) {
		return plan
	}
	return a.Comment
}

// answerStatus: a question answered already is a conflict; an answer that
// does not fit is the request's fault.
func answerStatus(err error) int {
	var ae *task.AnswerError
	var na *task.NotAwaitingError
	switch {
	case errors.As(err, &ae) && ae.AnsweredBy != "", errors.As(err, &na):
		return http.StatusConflict
	case errors.As(err, &ae):
		return http.StatusBadRequest
	}
	return status(err)
}
