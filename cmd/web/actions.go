package web

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/outage"
)

// stop is bh stop from the page: the same change to the task (Task.Stop,
// with the reason required), recorded as by web:<user>.
func (s *Server) stop(w http.ResponseWriter, r *http.Request) {
	s.act(w, r, "stopped", func(t *task.Task) error {
		return t.Stop(r.PostFormValue("reason"), s.o.Now(), s.o.By)
	})
}

// reopen is bh reopen from the page: the task is open again.
func (s *Server) reopen(w http.ResponseWriter, r *http.Request) {
	s.act(w, r, "reopened", func(t *task.Task) error {
		return t.SetState(task.Open, s.o.Now(), s.o.By, "")
	})
}

// resume is bh worker --resume from the inbox: the usage limit's pause of
// the repository's queue is over.
func (s *Server) resume(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
	if err := r.ParseForm(); err != nil || !s.sameOrigin(r) {
		http.Error(w, "bh serve: refused: the form did not come from this server's page (reload it and try again)",
			http.StatusForbidden)
		return
	}
	st, err := s.store(r.PathValue("repo"))
	if err == nil {
		err = outage.Resume(st)
	}
	if err != nil {
		http.Error(w, "bh serve: resume: "+err.Error(), status(err))
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// act changes the task the request names under its lock, then shows its
// page again, saying what was done or why not.
func (s *Server) act(w http.ResponseWriter, r *http.Request, done string, change func(*task.Task) error) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bh serve: "+err.Error(), http.StatusBadRequest)
		return
	}
	if !s.sameOrigin(r) {
		http.Error(w, "bh serve: refused: the form did not come from this server's page (reload it and try again)",
			http.StatusForbidden)
		return
	}
	st, err := s.store(r.PathValue("repo"))
	var id string
	if err == nil {
		id, err = st.Resolve(r.PathValue("id"))
	}
	if err == nil {
		_, err = st.Update(id, func(t *task.Task) error { return change(t) })
	}
	if err == nil {
		u := url.URL{Path: "/r/" + url.PathEscape(r.PathValue("repo")) + "/t/" + url.PathEscape(id),
			RawQuery: url.Values{"done": {done}}.Encode()}
		http.Redirect(w, r, u.String(), http.StatusSeeOther)
		return
	}
	v, code := s.taskView(r)
	if code == http.StatusOK {
		code = actStatus(err)
	}
	v.Error = v.plain(err)
	s.render(w, r, code, "task", v.Title, v)
}

// actStatus: a task that cannot make the move is a conflict; a stop with
// no reason is the request's fault.
func actStatus(err error) int {
	var ns *task.NotStoppableError
	var te *task.TransitionError
	switch {
	case errors.Is(err, task.ErrNoReason):
		return http.StatusBadRequest
	case errors.As(err, &ns), errors.As(err, &te):
		return http.StatusConflict
	}
	return status(err)
}
