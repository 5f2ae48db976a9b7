// Package web is bh serve: the inbox of every registered repository in a
// browser, with answers through the same code path as bh respond and live
// updates over Server-Sent Events. Plain HTML, CSS and a little JS,
// embedded; every request needs the user's token.
package web

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/bh-tracker/bh/cmd/undo"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

//go:embed assets
var assets embed.FS

// Options configure a Server.
type Options struct {
	Token string // required on every request
	By    string // who answers, in the history: "web:<user>"
	// Repos lists the repositories to show: config.Registered.
	Repos func() ([]string, error)
	Now   func() time.Time
	// AfterFunc runs f after d unless stopped: time.AfterFunc unless set
	// (a test's clock for the undo window).
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	TLS       bool // served over TLS: the cookie is Secure
	// URL is the address bh serve is reachable at when a proxy (tailscale
	// serve, a TLS front) forwards to it: forms posted from its pages
	// carry that origin.
	URL string
	// LocalLinks is the loopback address answer links point at when no
	// public address is set: the inbox warns that a phone cannot open them.
	LocalLinks string
	// Warnf reports what went wrong beside a request, such as a
	// notification that could not go out; nil discards.
	Warnf func(format string, args ...any)
	// WebConfig reads the key of answer links and the links used, on each
	// link's request (a key rotated meanwhile revokes at once);
	// SaveWebConfig records a link used. config.LoadWebConfig and
	// config.SaveWebConfig unless set.
	WebConfig     func() (config.WebConfig, error)
	SaveWebConfig func(config.WebConfig) error
}

// Server serves the web inbox.
type Server struct {
	o    Options
	csrf string
	hub  *hub
	page pages
	// publicHost is the host of Options.URL, "" without one.
	publicHost string
	// linkMu makes checking a link unused, answering and marking it used
	// one step.
	linkMu sync.Mutex
	holds  *undo.Holds // answers waiting out their undo window
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
	srv := &Server{o: o, csrf: csrfValue(o.Token), hub: newHub(), page: p, holds: undo.New(o.Now, o.AfterFunc)}
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
	s.linkRoutes(open)
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

// store opens the registered repository whose RepoKey is key.
func (s *Server) store(key string) (*store.Store, error) {
	roots, err := s.o.Repos()
	if err != nil {
		return nil, err
	}
	for _, root := range roots {
		if config.RepoKey(root) == key {
			st, err := store.Find(root)
			if err != nil {
				return nil, err
			}
			st.Now = s.o.Now
			return st, nil
		}
	}
	return nil, fmt.Errorf("no registered repository %q: %w", key, fs.ErrNotExist)
}
