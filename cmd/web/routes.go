package web

import (
	"errors"
	"io/fs"
	"net/http"
	"net/url"
	"time"

	"github.com/bh-tracker/bh/cmd/undo"
	"github.com/bh-tracker/bh/cmd/web/diffview"
	"github.com/bh-tracker/bh/cmd/web/webopts"
	"github.com/bh-tracker/bh/task/config"
)

// Inbox is New as bh serve takes it (webopts.New).
func Inbox(o Options) (webopts.Server, error) {
	s, err := New(o)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// New makes a server; Watch starts its live updates.
func New(o Options) (*Server, error) {
	if o.Token == "" {
		return nil, errors.New("web: no token")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.WebConfig == nil {
		o.WebConfig = config.LoadWebConfig
	}
	if o.SaveWebConfig == nil {
		o.SaveWebConfig = config.SaveWebConfig
	}
	p, err := parsePages(o.Now)
	if err != nil {
		return nil, err
	}
	css, err := diffview.CSS()
	if err != nil {
		return nil, err
	}
	srv := &Server{o: o, csrf: csrfValue(o.Token), hub: newHub(), page: p, holds: undo.New(o.Now, o.AfterFunc), css: css}
	if u, err := url.Parse(o.URL); err == nil {
		srv.publicHost = u.Host
	}
	return srv, nil
}

// Handler is the whole site: behind the token, except the static files
// (no secrets) and the answer links (which are their own secret).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.inbox)
	mux.HandleFunc("GET /r/{repo}/t/{id}", s.taskPage)
	mux.HandleFunc("GET /r/{repo}/t/{id}/file", s.file)
	mux.HandleFunc("POST /r/{repo}/t/{id}/answer", s.answer)
	mux.HandleFunc("POST /r/{repo}/t/{id}/stop", s.stop)
	mux.HandleFunc("POST /r/{repo}/t/{id}/reopen", s.reopen)
	mux.HandleFunc("POST /r/{repo}/t/{id}/undo", s.undo)
	mux.HandleFunc("POST /r/{repo}/resume", s.resume)
	mux.HandleFunc("GET /events", s.events)
	mux.HandleFunc("GET /insights", s.insights)
	mux.HandleFunc("GET /metrics", s.metrics)
	open := http.NewServeMux()
	static, _ := fs.Sub(assets, "assets/static")
	open.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	open.HandleFunc("GET /static/code.css", s.codeCSS)
	s.linkRoutes(open)
	open.HandleFunc("GET /l/{link}/file", s.linkFile)
	if s.o.GitHub != nil {
		open.Handle("POST /github/webhook", s.o.GitHub)
	}
	open.Handle("/", s.auth(mux))
	return headers(open)
}

// headers keep the pages to themselves: no framing, no foreign scripts.
func headers(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "same-origin")
		h.ServeHTTP(w, r)
	})
}
