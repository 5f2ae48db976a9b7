package web

import (
	"bytes"
	"html/template"
	"log"
	"net/http"
	"path/filepath"
	"time"

	"github.com/bh-tracker/bh/task"
)

// pages are the site's templates: each page is the layout around its
// "main", which is also served alone (?part=main) for live updates.
type pages map[string]*template.Template

func parsePages() (pages, error) {
	funcs := template.FuncMap{
		"key":  task.RepoKey,
		"base": filepath.Base,
		"when": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
		"iso":  func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	}
	p := pages{}
	for _, name := range []string{"inbox", "task"} {
		t, err := template.New(name).Funcs(funcs).ParseFS(assets, "assets/layout.html", "assets/"+name+".html")
		if err != nil {
			return nil, err
		}
		p[name] = t
	}
	return p, nil
}

// render writes page with data, the whole page or its main part alone.
func (s *Server) render(w http.ResponseWriter, r *http.Request, code int, page string, data any) {
	part := "layout"
	if r.URL.Query().Get("part") == "main" {
		part = "main"
	}
	var b bytes.Buffer
	if err := s.page[page].ExecuteTemplate(&b, part, data); err != nil {
		log.Printf("bh serve: %s: %v", page, err)
		http.Error(w, "bh serve: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(b.Bytes())
}

// inboxView is the inbox page: what waits across repositories.
type inboxView struct {
	Title   string
	Items   []task.InboxItem
	Running []runningView
	Skipped []string
	Error   string
}

type runningView struct {
	Root string
	Task *task.Task
	When time.Time
}

func (s *Server) inbox(w http.ResponseWriter, r *http.Request) {
	v := inboxView{Title: "bh inbox"}
	roots, err := s.o.Repos()
	if err != nil {
		v.Error = "the registry of repositories cannot be read: " + err.Error()
	}
	in := task.ReadInbox(roots)
	v.Items = in.Items
	for i, t := range in.Running {
		rv := runningView{Root: in.Roots[i], Task: t, When: t.UpdatedAt}
		if t.Lease != nil {
			rv.When = t.Lease.StartedAt
		}
		v.Running = append(v.Running, rv)
	}
	for _, e := range in.Skipped {
		v.Skipped = append(v.Skipped, e.Error())
	}
	s.render(w, r, http.StatusOK, "inbox", v)
}
