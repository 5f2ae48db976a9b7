package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"html/template"
	"log"
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// pages are the site's templates: each page is the layout around its
// "main", which is also served alone (?part=main) for live updates.
type pages map[string]*template.Template

func parsePages(now func() time.Time) (pages, error) {
	md := newMarkdown()
	funcs := template.FuncMap{
		"md": md.HTML,
		// ago and expiry say times relative to now, as the terminal does.
		"ago":    func(t time.Time) string { return ago(now(), t) },
		"expiry": func(t time.Time) string { return task.ExpiryText(now(), t) },
		"plural": func(n int, one, many string) string {
			if n == 1 {
				return "1 " + one
			}
			return strconv.Itoa(n) + " " + many
		},
		"key":   config.RepoKey,
		"state": stateText,
		"event": eventKind,
		"said":  eventText,
		"words": entries,
		"base":  filepath.Base,
		// respond is the command that answers a question from a terminal.
		"respond": task.RespondCommand,
		"when":    func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
		"sub":     func(a, b int) int { return a - b },
		"clock":   func(t time.Time) string { return t.UTC().Format("15:04:05 UTC") },
		"add":     func(a, b int) int { return a + b },
		"iso":     func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"since": func(t *task.Task) time.Time { // when its run began
			if t.Lease != nil {
				return t.Lease.StartedAt
			}
			return t.UpdatedAt
		},
	}
	p := pages{}
	for _, name := range []string{"inbox", "task", "insights"} {
		t, err := template.New(name).Funcs(funcs).ParseFS(assets, "assets/layout.html", "assets/"+name+".html")
		if err != nil {
			return nil, err
		}
		p[name] = t
	}
	return p, nil
}

// render writes page with data: the whole page, or its main part alone
// (?part=main). The version of the main part lets a live page skip a
// refresh that would change nothing, and so never replace what it shows
// (and what the user is about to click) with the same thing.
func (s *Server) render(w http.ResponseWriter, r *http.Request, code int, page, title string, data any) {
	var main bytes.Buffer
	if err := s.page[page].ExecuteTemplate(&main, "main", data); err != nil {
		log.Printf("bh serve: %s: %v", page, err)
		http.Error(w, "bh serve: "+err.Error(), http.StatusInternalServerError)
		return
	}
	// What an agent wrote is anywhere on the page (questions, summaries,
	// steps, diffs): the page goes through task.SafeText, which only drops
	// characters bh's templates never hold, so no markup changes.
	shown := []byte(task.SafeText(main.String()))
	sum := sha256.Sum256(shown)
	version := hex.EncodeToString(sum[:8])
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Bh-Version", version)
	if r.URL.Query().Get("part") == "main" {
		w.WriteHeader(code)
		w.Write(shown)
		return
	}
	// An answer link's page is opened without the token: it links to no
	// page behind it, and has no live updates (they are behind it too).
	link, _ := data.(interface{ LinkPage() bool })
	var b bytes.Buffer
	err := s.page[page].ExecuteTemplate(&b, "layout", struct {
		Title, Version string
		Main           template.HTML // rendered by html/template above: escaped already
		Link           bool
	}{task.SafeText(title), version, template.HTML(shown), link != nil && link.LinkPage()})
	if err != nil {
		http.Error(w, "bh serve: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(code)
	w.Write(b.Bytes())
}

// ago is how long before now t was: "5m ago", "just now".
func ago(now, t time.Time) string {
	if d := now.Sub(t); d >= time.Minute {
		return task.ShortDur(d) + " ago"
	}
	return "just now"
}
