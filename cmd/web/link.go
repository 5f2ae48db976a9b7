package web

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/bh-tracker/bh/worker/act"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// Answer links (config.Link) open one task's page without the token, from a
// phone: the link itself is the secret. They reach these routes only:
//
//	GET  /l/{link}         the task's page, with a form for the questions the link covers
//	POST /l/{link}/answer  that form (Origin and the link's own CSRF value checked)
//	GET  /l/{link}/file    one file of its change (?path=), fetched when its fold opens (routes.go)
//	POST /l/{link}/act     one tap in a notification (ntfy's http action): q and
//	                       answer, form-encoded, for an approval (no gate) or a single choice
//
// A link answers once; the answer goes through act.Answer as every
// other does, recorded as given by the link's channel (ntfy, slack, link).
func (s *Server) linkRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /l/{link}", s.linkPage)
	mux.HandleFunc("POST /l/{link}/answer", s.linkAnswer)
	mux.HandleFunc("POST /l/{link}/act", s.linkAct)
	mux.HandleFunc("POST /l/{link}/undo", s.linkUndo)
}

// linkError is a link refused, with the status that says why.
type linkError struct {
	code int
	msg  string
}

func (e *linkError) Error() string { return e.msg }

var errUsed = &linkError{http.StatusGone, "this link has answered already: a link answers once " +
	"(open bh serve with its token, or use bh respond, to change the answer)"}

// link is the request's link, checked against the current key (a key
// rotated since refuses it), its expiry and the used list.
func (s *Server) link(r *http.Request) (config.Link, config.WebConfig, error) {
	conf, err := s.o.WebConfig()
	if err != nil {
		return config.Link{}, conf, &linkError{http.StatusInternalServerError, err.Error()}
	}
	l, err := conf.ReadLink(r.PathValue("link"))
	switch {
	case err != nil:
		return l, conf, &linkError{http.StatusForbidden, err.Error()}
	case s.o.Now().After(l.ExpiresAt()):
		return l, conf, &linkError{http.StatusGone, "this link expired at " + l.ExpiresAt().Format("2006-01-02 15:04 UTC")}
	case conf.Used[l.ID] != 0:
		return l, conf, errUsed
	}
	return l, conf, nil
}

func (s *Server) linkPage(w http.ResponseWriter, r *http.Request) {
	l, conf, err := s.link(r)
	switch {
	case err == errUsed && r.URL.Query().Get("answered") != "":
		s.linkNote(w, http.StatusOK, "Your answer is recorded", "The agent resumes with it. This link has done its work: it cannot answer again.")
		return
	case err == errUsed:
		s.linkNote(w, http.StatusGone, "This link cannot answer", s.usedText(l))
		return
	}
	if err != nil {
		s.linkRefused(w, err)
		return
	}
	v, code := s.linkView(r, l, conf)
	v.Notice = notices[r.URL.Query().Get("done")]
	s.render(w, r, code, "task", v.Title, v)
}

// linkView is the task's page as the link shows it: the questions it
// covers, with a form that posts back to the link, and no other task
// (whoever holds a link may see its task only).
func (s *Server) linkView(r *http.Request, l config.Link, conf config.WebConfig) (*taskView, int) {
	r.SetPathValue("repo", l.Repo)
	r.SetPathValue("id", l.Task)
	v, code := s.taskView(r)
	v.Link, v.Next = true, nil
	v.Questions = slices.DeleteFunc(v.Questions, func(q questionView) bool { return !l.Covers(q.Q.ID) })
	v.Open = 0
	for _, q := range v.Questions {
		if q.Waits {
			v.Open++
		}
	}
	v.AnswerURL = "/l/" + url.PathEscape(r.PathValue("link")) + "/answer"
	v.UndoURL = "/l/" + url.PathEscape(r.PathValue("link")) + "/undo"
	v.fileBase = "/l/" + url.PathEscape(r.PathValue("link")) + "/file"
	v.CSRF = conf.LinkSecret(l, "csrf")
	return v, code
}

func (s *Server) linkAnswer(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bh serve: "+err.Error(), http.StatusBadRequest)
		return
	}
	l, conf, err := s.link(r)
	if err != nil {
		s.linkRefused(w, err)
		return
	}
	if !s.fromPage(r, conf.LinkSecret(l, "csrf")) {
		http.Error(w, "bh serve: refused: the form did not come from this link's page (open the link again)", http.StatusForbidden)
		return
	}
	ans, err := formAnswers(l.Task, r.PostForm)
	if err == nil {
		if st, serr := s.store(l.Repo); serr == nil && s.linkHeld(w, r, l, conf, s.decide(st, l.Task, ans, r.PostForm), ans) {
			return
		}
		err = s.answerOnce(l, ans)
	}
	if err == nil {
		http.Redirect(w, r, "/l/"+url.PathEscape(r.PathValue("link"))+"?answered=1", http.StatusSeeOther)
		return
	}
	var le *linkError
	if errors.As(err, &le) {
		s.linkRefused(w, err)
		return
	}
	v, code := s.linkView(r, l, conf)
	if code == http.StatusOK {
		code = answerStatus(err)
	}
	v.Error, v.Kept = v.plain(err), r.PostForm
	s.render(w, r, code, "task", v.Title, v)
}

// linkAct is a notification's button: exactly one option of an approval
// (yes or no) or of a single choice, and nothing else, since the request
// comes from no page of ours (ntfy sends it, without Origin). The reply is
// plain text, for whatever shows it.
func (s *Server) linkAct(w http.ResponseWriter, r *http.Request) {
	plain := func(code int, msg string) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(code)
		fmt.Fprintln(w, "bh: "+msg)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4<<10))
	f, perr := url.ParseQuery(string(body))
	if err != nil || perr != nil || len(f["q"]) != 1 || len(f["answer"]) != 1 || len(f) != 2 {
		plain(http.StatusBadRequest, "want the body q=<question>&answer=<option>, as the notification's button sends")
		return
	}
	l, _, err := s.link(r)
	if err == nil {
		err = s.oneTap(l, f.Get("q"), f.Get("answer"))
	}
	var le *linkError
	switch {
	case errors.As(err, &le):
		plain(le.code, le.msg)
	case err != nil:
		plain(answerStatus(err), s.named(err).Error())
	default:
		plain(http.StatusOK, "answered "+f.Get("answer")+" ("+l.Task+")")
	}
}

// oneTap answers question qid with value when it is one of the options of
// an approval that is no gate or of a single choice the link covers.
func (s *Server) oneTap(l config.Link, qid, value string) error {
	st, err := s.store(l.Repo)
	if err != nil {
		return err
	}
	t, err := st.Get(l.Task)
	if err != nil {
		return err
	}
	inWords := &task.AnswerError{ID: l.Task, QuestionID: qid, Reason: "one tap answers an approval or a single choice only: open the link to answer in words"}
	q := t.QuestionByID(qid)
	if q == nil {
		return inWords
	}
	if q.Gate {
		return &task.AnswerError{ID: l.Task, QuestionID: qid, Reason: "a gate is answered on its page, where its change is shown: open the link"}
	}
	opts := []string{"yes", "no"}
	if q.Kind() == task.ChoiceQuestion && !q.MultiSelect {
		opts = q.Labels()
	} else if q.Kind() != task.ApprovalQuestion {
		return inWords
	}
	if !slices.Contains(opts, value) {
		return &task.AnswerError{ID: l.Task, QuestionID: qid, Reason: fmt.Sprintf("%q is not an option (%s)", value, strings.Join(opts, ", "))}
	}
	return s.answerOnce(l, []task.Answer{{QuestionID: qid, Values: []string{value}}})
}

// answerOnce records ans through act.Answer and marks l used, one link
// at a time, so that two taps of one link cannot both answer.
func (s *Server) answerOnce(l config.Link, ans []task.Answer) error {
	if slices.ContainsFunc(ans, func(a task.Answer) bool { return !l.Covers(a.QuestionID) }) {
		return &linkError{http.StatusForbidden, "this link answers only the questions it was sent for, of " + l.Task}
	}
	st, err := s.store(l.Repo)
	if err != nil {
		return err
	}
	s.linkMu.Lock()
	defer s.linkMu.Unlock()
	conf, err := s.o.WebConfig()
	if err != nil {
		return err
	}
	if conf.Used[l.ID] != 0 {
		return errUsed
	}
	if _, err := act.Answer(st, l.Task, ans, l.Via, s.o.Warnf); err != nil {
		return err
	}
	// Read again, so that a key rotated meanwhile (--revoke-links) stays.
	if conf, err = s.o.WebConfig(); err == nil {
		conf.UseLink(l, s.o.Now())
		err = s.o.SaveWebConfig(conf)
	}
	if err != nil && s.o.Warnf != nil {
		s.o.Warnf("the answer is recorded, but its link could not be marked used: %v", err)
	}
	return nil
}

var notePage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("note").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title><link rel="stylesheet" href="/static/style.css"></head>
<body><main><h1>{{.Title}}</h1><p>{{.Text}}</p></main></body></html>
`))
})

// usedText says what a used link answered: each question it covers, with
// its answer, when and through which channel.
func (s *Server) usedText(l config.Link) string {
	var said []string
	if st, err := s.store(l.Repo); err == nil {
		if t, err := st.Get(l.Task); err == nil {
			for _, q := range t.Questions {
				if e, ok := t.LastAnswer(q.ID); ok && l.Covers(q.ID) {
					said = append(said, fmt.Sprintf("“%s” was answered %s by %s at %s", questionName(q), e.Text,
						task.Who(e.By, s.me()), e.At.UTC().Format("2006-01-02 15:04 UTC")))
				}
			}
		}
	}
	text := "This link has answered already"
	if len(said) > 0 {
		text += ": " + strings.Join(said, "; ")
	}
	return text + ". A link answers once: open bh serve with its token, or use bh respond, to change the answer."
}

// linkNote is a page that only says something: a link refused or done.
func (s *Server) linkNote(w http.ResponseWriter, code int, title, text string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	notePage().Execute(w, struct{ Title, Text string }{task.SafeText(title), task.SafeText(text)}) // text may quote questions
}

func (s *Server) linkRefused(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	var le *linkError
	if errors.As(err, &le) {
		code = le.code
	}
	s.linkNote(w, code, "This link cannot answer", strings.ToUpper(err.Error()[:1])+err.Error()[1:]+".")
}
