package web

import (
	"bytes"
	"compress/gzip"
	"log"
	"net/http"
	"net/url"
	"strings"

	"github.com/bh-tracker/bh/cmd/web/diffview"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
)

// fileView is one file's diff as its <pre> shows it: its lines numbered
// and coloured, each one a comment can go on focusable while a gate waits.
type fileView struct {
	Lines  []diffview.Line
	Review bool
}

// fileOf is f as the page shows it; headers ("diff --git", "index",
// ---/+++) only for a file that has no hunk (a binary one, a mode
// changed): its summary names it already.
func fileOf(f git.FileDiff, review string) fileView {
	lines := diffview.Lines(f)
	var code []diffview.Line
	for _, l := range lines {
		if l.Class != "meta" {
			code = append(code, l)
		}
	}
	if len(code) > 0 {
		lines = code
	}
	return fileView{lines, review != ""}
}

// FileView is f as the page shows it.
func (v *taskView) FileView(f git.FileDiff) fileView { return fileOf(f, v.Reviewing()) }

// FileURL is where a folded file's diff is fetched when it is opened.
func (v *taskView) FileURL(name string) string { return v.fileBase + "?path=" + url.QueryEscape(name) }

// file serves one file of the task's parked change (?path=), the <pre>
// that a big file's fold fetches when it is opened: the page itself
// holds no big file's lines.
func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	v, code := s.taskView(r)
	s.fileOf(w, r, v, code)
}

func (s *Server) linkFile(w http.ResponseWriter, r *http.Request) {
	l, conf, err := s.link(r)
	if err != nil {
		s.linkRefused(w, err)
		return
	}
	v, code := s.linkView(r, l, conf)
	s.fileOf(w, r, v, code)
}

func (s *Server) fileOf(w http.ResponseWriter, r *http.Request, v *taskView, code int) {
	if code != http.StatusOK {
		http.Error(w, "bh serve: "+v.Error, code)
		return
	}
	name := r.URL.Query().Get("path")
	for _, f := range v.Files {
		if f.Name != name {
			continue
		}
		var b bytes.Buffer
		if err := s.page["task"].ExecuteTemplate(&b, "filediff", fileOf(f, v.Reviewing())); err != nil {
			log.Printf("bh serve: %s: %v", name, err)
			http.Error(w, "bh serve: "+err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Vary", "Accept-Encoding")
		shown := []byte(task.SafeText(b.String()))
		// A long file's markup (two numbers and coloured tokens a line)
		// repeats itself: gzip sends a tenth of it.
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Header().Set("Content-Encoding", "gzip")
			z := gzip.NewWriter(w)
			z.Write(shown)
			z.Close()
			return
		}
		w.Write(shown)
		return
	}
	http.Error(w, "bh serve: the change has no file "+name, http.StatusNotFound)
}

func (s *Server) codeCSS(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Write(s.css)
}
