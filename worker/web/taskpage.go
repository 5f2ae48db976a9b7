package web

import (
	"errors"
	"io/fs"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
)

// taskView is a task's page: its questions with their forms, its history
// and its parked work.
type taskView struct {
	Title     string
	Key, Repo string
	Task      *task.Task
	Pending   []task.Question
	Templates []templateView
	CSRF      string
	Stat      string
	Diff      []diffLine
	DiffCut   bool
	Answered  string // the question just answered here
	Error     string
	Kept      url.Values // a refused answer's form, to fill in again
}

// KeptText is what a refused answer to question qid had in field name.
func (v *taskView) KeptText(qid, name string) string {
	if v.Kept.Get("q") != qid {
		return ""
	}
	return v.Kept.Get(name)
}

// KeptPick says whether a refused answer to question qid picked value.
func (v *taskView) KeptPick(qid, value string) bool {
	return v.Kept.Get("q") == qid && slices.Contains(v.Kept["answer"], value)
}

type templateView struct{ Name, Text string }

func (s *Server) taskPage(w http.ResponseWriter, r *http.Request) {
	v, code := s.taskView(r)
	v.Answered = r.URL.Query().Get("answered")
	s.render(w, r, code, "task", v.Title, v)
}

// taskView reads the task the request names; code is 404 when there is none.
func (s *Server) taskView(r *http.Request) (*taskView, int) {
	key, id := r.PathValue("repo"), r.PathValue("id")
	v := &taskView{Title: id, Key: key, CSRF: s.csrf}
	st, err := s.store(key)
	if err != nil {
		v.Error = err.Error()
		return v, status(err)
	}
	v.Repo = st.Root
	if id, err = st.Resolve(id); err == nil {
		v.Task, err = st.Get(id)
	}
	if err != nil {
		v.Error = err.Error()
		return v, status(err)
	}
	v.Title = id + " " + v.Task.Title
	v.Pending = v.Task.OpenQuestions()
	if len(v.Pending) > 0 {
		for _, name := range st.TemplateNames() {
			if text, err := st.Template(name); err == nil {
				v.Templates = append(v.Templates, templateView{name, text})
			}
		}
	}
	if p, err := git.FindParked(st.Root, id); err == nil && p.Commit != "" {
		v.Stat, _ = p.Diff(true)
		if d, err := p.Diff(false); err == nil {
			v.Diff, v.DiffCut = diffLines(d)
		}
	}
	return v, http.StatusOK
}

// status is the HTTP status for a task that cannot be shown: what the
// address names (a bad, unknown or ambiguous id) is the client's error,
// anything else the server's.
func status(err error) int {
	var nf *task.NotFoundError
	var bad *task.BadIDError
	var amb *task.AmbiguousError
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.As(err, &nf):
		return http.StatusNotFound
	case errors.As(err, &bad) || errors.As(err, &amb):
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

// diffLine is one line of a diff, with its class for colour.
type diffLine struct{ Class, Text string }

// maxDiff bounds the diff a page shows; bh diff has the rest.
const maxDiff = 4000

func diffLines(d string) (lines []diffLine, cut bool) {
	all := strings.Split(strings.TrimSuffix(d, "\n"), "\n")
	if len(all) > maxDiff {
		all, cut = all[:maxDiff], true
	}
	for _, l := range all {
		c := "ctx"
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "diff "),
			strings.HasPrefix(l, "index "), strings.HasPrefix(l, "new file"), strings.HasPrefix(l, "deleted file"):
			c = "meta"
		case strings.HasPrefix(l, "@@"):
			c = "hunk"
		case strings.HasPrefix(l, "+"):
			c = "add"
		case strings.HasPrefix(l, "-"):
			c = "del"
		}
		lines = append(lines, diffLine{c, l})
	}
	return lines, cut
}
