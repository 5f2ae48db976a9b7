package web

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/notify"
)

// answer takes one question's form. The answer goes through
// notify.Answer, as bh respond's does: the same checks, the same history
// and input.received, with the answerer recorded as web:<user>.
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
	qid := r.PostFormValue("q")
	id, err := st.Resolve(r.PathValue("id"))
	var t *task.Task
	if err == nil {
		t, err = notify.Answer(st, id, []task.Answer{formAnswer(r.PostForm)}, s.o.By, s.o.Warnf)
	}
	if err == nil {
		u := url.URL{Path: "/r/" + url.PathEscape(r.PathValue("repo")) + "/t/" + url.PathEscape(t.ID),
			RawQuery: url.Values{"answered": {qid}}.Encode()}
		http.Redirect(w, r, u.String(), http.StatusSeeOther)
		return
	}
	v, code := s.taskView(r)
	if code == http.StatusOK {
		code = answerStatus(err)
	}
	v.Error = err.Error()
	s.render(w, r, code, "task", v.Title, v)
}

// formAnswer reads one question's answer: q, its id; answer, the decision
// (yes or no, the options picked, "other"); comment, the words beside it
// (feedback, the words of an Other choice); text, the answer in words.
func formAnswer(f url.Values) task.Answer {
	a := task.Answer{QuestionID: f.Get("q"), Values: f["answer"], Comment: f.Get("comment")}
	if text := f.Get("text"); strings.TrimSpace(text) != "" {
		a.Values = append(a.Values, text)
	}
	return a
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
