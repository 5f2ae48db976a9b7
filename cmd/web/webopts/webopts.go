// Package webopts is what bh serve hands the web inbox (cmd/web), apart
// from the inbox itself: bh links this package and not the inbox, whose
// libraries (goldmark, chroma) build their tables in every process that
// links them. bh-web (cmd/web/bh-web) is bh with the inbox linked, and
// bh serve runs it.
package webopts

import (
	"context"
	"net/http"
	"time"

	"github.com/bh-tracker/bh/task/config"
)

// Options configure the inbox.
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
	// GitHub, if set, takes GitHub's webhooks at POST /github/webhook,
	// outside the token: they are signed with their own secret.
	GitHub http.Handler
}

// Server is the inbox as bh serve runs it (web.Server).
type Server interface {
	Watch(ctx context.Context) error // follows the repositories' changes for the pages' live updates
	Handler() http.Handler
	Flush() // records what waits out its undo window: bh serve is stopping
}

// New makes the inbox: web.New, in bh-web.
type New func(Options) (Server, error)
