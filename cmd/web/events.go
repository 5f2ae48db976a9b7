package web

import (
	"fmt"
	"net/http"
	"sync"
	"time"
)

// hub passes change notices from the watcher to every open page.
type hub struct {
	mu   sync.Mutex
	subs map[chan string]bool
}

func newHub() *hub { return &hub{subs: map[chan string]bool{}} }

// publish tells every page; a page still busy with the last notice misses
// nothing by skipping this one, since each notice means "read again".
func (h *hub) publish(data string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.subs {
		select {
		case c <- data:
		default:
		}
	}
}

func (h *hub) subscribe() (<-chan string, func()) {
	c := make(chan string, 1)
	h.mu.Lock()
	h.subs[c] = true
	h.mu.Unlock()
	return c, func() {
		h.mu.Lock()
		delete(h.subs, c)
		h.mu.Unlock()
	}
}

// keepAlive is how often an idle stream says it is still there, so that
// proxies and browsers do not drop it.
const keepAlive = 15 * time.Second

// events is the Server-Sent Events stream: "change" whenever a task or a
// run of a registered repository changed, with the repositories' keys.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "bh serve: streaming unsupported", http.StatusInternalServerError)
		return
	}
	c, cancel := s.hub.subscribe()
	defer cancel()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, "retry: 1000\nevent: ready\ndata: {}\n\n")
	fl.Flush()
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case data := <-c:
			fmt.Fprintf(w, "event: change\ndata: %s\n\n", data)
		case <-tick.C:
			fmt.Fprint(w, ": still here\n\n")
		}
		fl.Flush()
	}
}
