// Package web is bh serve: the inbox of every registered repository in a
// browser, with answers through the same code path as bh respond and live
// updates over Server-Sent Events. Plain HTML, CSS and a little JS,
// embedded; every request needs the user's token.
package web

import (
	"embed"
	"fmt"
	"io/fs"
	"sync"

	"github.com/bh-tracker/bh/cmd/undo"
	"github.com/bh-tracker/bh/cmd/web/webopts"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/storegit"
)

//go:embed assets
var assets embed.FS

// Options configure a Server.
type Options = webopts.Options

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
	css    []byte      // the code's colours in a diff (/static/code.css)
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
			// What the page writes (an answer, a stop) is kept as every
			// bh write is: else the next command would take the tree's
			// copy for one git took back, or miss one git did.
			st.Keep = storegit.NewKeeper(st, func(err error) {
				if s.o.Warnf != nil {
					s.o.Warnf("%v", err)
				}
			}).Write
			return st, nil
		}
	}
	return nil, fmt.Errorf("no registered repository %q: %w", key, fs.ErrNotExist)
}
