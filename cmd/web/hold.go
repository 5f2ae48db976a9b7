package web

import (
	"net/http"
	"net/url"
	"time"

	"github.com/bh-tracker/bh/cmd/undo"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

// decide says what an answer from a page waits for (undo.Decide): the
// form says whether the gate's change was opened (reviewed) or the human
// confirmed.
func (s *Server) decide(st *store.Store, id string, ans []task.Answer, f url.Values) undo.Step {
	return undo.Decide(st, id, ans, s.o.Now(), s.o.By, f.Get("reviewed") == "1", f.Get("confirm") == "1")
}

// hold keeps an answer back for undo.Window, then records it (record:
// through act.Answer, as any answer is).
func (s *Server) hold(key, id string, record func() error) {
	s.holds.Hold(key+"/"+id, func() {
		if err := record(); err != nil && s.o.Warnf != nil {
			s.o.Warnf("the answer held for %s was not recorded: %v", id, s.named(err)) // overtaken: the page shows the other answer
		}
	})
}

// heldUntil is when the answer held for the task is recorded; zero when none is.
func (s *Server) heldUntil(key, id string) time.Time { return s.holds.Until(key + "/" + id) }

// undo drops the answer held for the task: nothing was recorded, and its
// questions wait as before. Too late, the page says it was recorded.
func (s *Server) undo(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
	if r.ParseForm() != nil || !s.sameOrigin(r) {
		http.Error(w, "bh serve: refused: the form did not come from this server's page (reload it and try again)",
			http.StatusForbidden)
		return
	}
	key, id := r.PathValue("repo"), r.PathValue("id")
	u := url.URL{Path: "/r/" + url.PathEscape(key) + "/t/" + url.PathEscape(id), RawQuery: url.Values{"done": {s.drop(key, id)}}.Encode()}
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

// drop takes back the answer held for the task: "undone", or "late" when
// there was none left to take back.
func (s *Server) drop(key, id string) string {
	if s.holds.Drop(key + "/" + id) {
		return "undone"
	}
	return "late"
}

// linkHeld asks first or holds a link's answer as decide says (the
// link is used once the answer is recorded); false when it is for
// recording now.
func (s *Server) linkHeld(w http.ResponseWriter, r *http.Request, l config.Link, conf config.WebConfig, step undo.Step, ans []task.Answer) bool {
	switch step {
	case undo.AskFirst, undo.AskWhy:
		v, code := s.linkView(r, l, conf)
		v.Confirm, v.ConfirmReject, v.Kept = step == undo.AskFirst, step == undo.AskWhy, r.PostForm
		s.render(w, r, code, "task", v.Title, v)
	case undo.HoldBack:
		s.hold(l.Repo, l.Task, func() error { return s.answerOnce(l, ans) })
		http.Redirect(w, r, "/l/"+url.PathEscape(r.PathValue("link")), http.StatusSeeOther)
	}
	return step != undo.Record
}

// linkUndo is Undo on a link's page: the link stays unused.
func (s *Server) linkUndo(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
	l, conf, err := s.link(r)
	if err != nil {
		s.linkRefused(w, err)
		return
	}
	if r.ParseForm() != nil || !s.fromPage(r, conf.LinkSecret(l, "csrf")) {
		http.Error(w, "bh serve: refused: the form did not come from this link's page (open the link again)", http.StatusForbidden)
		return
	}
	http.Redirect(w, r, "/l/"+url.PathEscape(r.PathValue("link"))+"?done="+s.drop(l.Repo, l.Task), http.StatusSeeOther)
}

// Flush records every answer still held, at once: bh serve is stopping,
// and an answer nobody undid is the human's.
func (s *Server) Flush() { s.holds.Flush() }
