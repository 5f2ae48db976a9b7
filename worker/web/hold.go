package web

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/landing"
)

// UndoWindow is how long an answer that lands work is held before it is
// recorded: the task file keeps waiting meanwhile, so no worker can land
// it, and Undo drops it with nothing recorded.
const UndoWindow = 10 * time.Second

// next is what an answer from a page waits for before it is recorded.
type next int

const (
	recordNow next = iota
	askFirst       // a gate approved without its change opened: asked once
	holdBack       // an answer that lands work: held for UndoWindow
)

// decide is the one place that says so. A gate approved is asked about
// first unless the form says its change was opened (reviewed) or the
// human confirmed. The answers are tried on a fresh copy of the task:
// one that opens it for the worker to act on without the agent
// (landing.Settles: a gate approved, a landing decided) is held.
func (s *Server) decide(st *store.Store, id string, ans []task.Answer, f url.Values) next {
	t, err := st.Get(id)
	if err != nil {
		return recordNow // notify.Answer says why it is refused
	}
	if f.Get("reviewed") != "1" && f.Get("confirm") != "1" && approvesGate(t, ans) {
		return askFirst
	}
	if t.Answer(ans, s.o.Now(), s.o.By) != nil || t.State != task.Open {
		return recordNow
	}
	if _, ok := landing.Settles(t); ok {
		return holdBack
	}
	return recordNow
}

// approvesGate says whether ans says yes to a gate of t.
func approvesGate(t *task.Task, ans []task.Answer) bool {
	for _, a := range ans {
		for _, q := range t.OpenQuestions() {
			if q.Gate && q.ID == a.QuestionID && len(a.Values) == 1 && strings.EqualFold(a.Values[0], "yes") {
				return true
			}
		}
	}
	return false
}

// held is an answer waiting out its undo window; stop cancels its timer.
type held struct {
	until time.Time
	stop  func() bool
}

type holds struct {
	mu sync.Mutex
	m  map[string]*held // by repository key and task id
}

// hold keeps an answer back for UndoWindow, then records it (record:
// through notify.Answer, as any answer is); one held for the task before
// is replaced.
func (s *Server) hold(key, id string, record func() error) {
	h := &held{until: s.o.Now().Add(UndoWindow)}
	s.holds.mu.Lock()
	defer s.holds.mu.Unlock()
	if old := s.holds.m[key+"/"+id]; old != nil {
		old.stop()
	}
	s.holds.m[key+"/"+id] = h
	h.stop = s.o.AfterFunc(UndoWindow, func() {
		if !s.release(key, id, h) {
			return // undone meanwhile
		}
		if err := record(); err != nil && s.o.Warnf != nil {
			s.o.Warnf("the answer held for %s was not recorded: %v", id, s.named(err)) // overtaken: the page shows the other answer
		}
	})
}

// release takes h out of the holds, unless it was undone or replaced.
func (s *Server) release(key, id string, h *held) bool {
	s.holds.mu.Lock()
	defer s.holds.mu.Unlock()
	if s.holds.m[key+"/"+id] != h {
		return false
	}
	delete(s.holds.m, key+"/"+id)
	return true
}

// heldUntil is when the answer held for the task is recorded; zero when none is.
func (s *Server) heldUntil(key, id string) time.Time {
	s.holds.mu.Lock()
	defer s.holds.mu.Unlock()
	if h := s.holds.m[key+"/"+id]; h != nil {
		return h.until
	}
	return time.Time{}
}

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
	s.holds.mu.Lock()
	defer s.holds.mu.Unlock()
	h := s.holds.m[key+"/"+id]
	if h == nil {
		return "late"
	}
	delete(s.holds.m, key+"/"+id)
	h.stop()
	return "undone"
}

// linkHeld asks first or holds a link's answer as decide says (the
// link is used once the answer is recorded); false when it is for
// recording now.
func (s *Server) linkHeld(w http.ResponseWriter, r *http.Request, l config.Link, conf config.WebConfig, step next, ans []task.Answer) bool {
	switch step {
	case askFirst:
		v, code := s.linkView(r, l, conf)
		v.Confirm, v.Kept = true, r.PostForm
		s.render(w, r, code, "task", v.Title, v)
	case holdBack:
		s.hold(l.Repo, l.Task, func() error { return s.answerOnce(l, ans) })
		http.Redirect(w, r, "/l/"+url.PathEscape(r.PathValue("link")), http.StatusSeeOther)
	}
	return step != recordNow
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
