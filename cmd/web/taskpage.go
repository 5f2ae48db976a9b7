package web

import (
	"errors"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/plan"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/runlog"
)

// taskView is a task's page: its questions, answered and waiting, in one
// form; its parked work; what its agent does now; its history.
type taskView struct {
	Title     string
	Key, Repo string
	Task      *task.Task
	Questions []questionView // this round's, in the order asked
	Open      int            // how many wait
	Single    bool           // one question waits, an approval: its buttons answer it
	Templates []templateView
	CSRF      string
	Files     []git.FileDiff
	AnswerURL string // where the answer form posts
	DiffCut   bool
	Steps     []store.StepLine   // a running agent's latest steps, when it has no log yet
	Runs      []runView          // the agent's runs, from their logs, the last open
	Saved     []string           // the questions just answered here, in words
	Notice    string             // what a stop or a reopen did
	Measured  string             // rounds to green, time in checks and waiting on review
	PlanTitle string             // its plan's standing, once approved or sent back: "approved as edited" (task/plan)
	Plan      string             // that plan: as approved, or as edited
	Next      *store.RunningTask // the next task waiting on an answer
	Error     string
	Kept      url.Values // a refused answer's form, to fill in again
	Link      bool       // opened by an answer link: its task alone, no stop or reopen
	Confirm   bool       // a gate approved without its change opened: asked once (Kept holds the answer)
	Held      time.Time  // when the answer held for its undo window is recorded
	UndoURL   string     // where its Undo posts
	Me        string     // the user answering here, as web:<user> names them
	fileBase  string     // where a folded file's diff is fetched (FileURL)

	ConfirmReject bool          // a gate rejected with no reason nor comment on a line: asked once (Kept holds it)
	Attempts      []attemptView // a task tried side by side: each attempt's diff, for the pick
}

// LinkPage says whether the page is an answer link's (opened without the token).
func (v *taskView) LinkPage() bool { return v.Link }

// Opened says whether the page shows some of the change open.
func (v *taskView) Opened() bool { return slices.ContainsFunc(v.Files, git.FileDiff.Short) }

// Reviewing is the gate waiting on the change shown, whose answer carries
// the comments on its lines; "" when none waits.
func (v *taskView) Reviewing() string {
	for _, q := range v.Questions {
		if q.Waits && q.Q.Gate {
			return q.Q.ID
		}
	}
	return ""
}

// Hidden are the fields of the answer kept whose names start with
// prefix: all of them for a confirmation to send again, the comments on
// lines for a refused answer.
func (v *taskView) Hidden(prefix string) [][2]string {
	var out [][2]string
	for _, k := range slices.Sorted(maps.Keys(v.Kept)) {
		for _, val := range v.Kept[k] {
			if k != "csrf" && k != "confirm" && strings.HasPrefix(k, prefix) {
				out = append(out, [2]string{k, val})
			}
		}
	}
	return out
}

// questionView is one question of the round: waiting, or answered, by
// whom, what and when.
type questionView struct {
	Q      task.Question
	N      int
	Waits  bool
	Answer task.Event // the input.received event, for an answered one
}

// CanStop and CanReopen say which of bh stop and bh reopen fit the task.
func (v *taskView) CanStop() bool {
	s := v.Task.State
	return !v.Link && (s == task.InProgress || s == task.AwaitingInput || s == task.Blocked)
}

func (v *taskView) CanReopen() bool {
	s := v.Task.State
	return !v.Link && (s == task.Failed || s == task.Blocked || s == task.Deferred || s == task.Closed)
}

type templateView struct{ Name, Text string }

// runView is one run of the agent: what it said, the tools it called and
// the commands it ran, with their results, and how it ended.
type runView struct {
	N       int
	Last    bool
	Entries []agent.Entry
}

// shownRuns bounds the runs a page reads: bh transcript has the rest.
const shownRuns = 5

// runs are the task's latest runs, read from their logs (as bh
// transcript reads them), the one under way included.
func runs(st *store.Store, id string) []runView {
	dir := store.RunDir(st, id)
	_, n, err := runlog.Transcript(dir, id, 0)
	if err != nil {
		return nil
	}
	var out []runView
	for i := max(1, n-shownRuns+1); i <= n; i++ {
		if e, _, err := runlog.Transcript(dir, id, i); err == nil {
			out = append(out, runView{N: i, Last: i == n, Entries: e})
		}
	}
	return out
}

// notices say what a stop, a reopen or an undo did (?done=).
var notices = map[string]string{"stopped": "Stopped: the task is deferred until it is reopened.",
	"reopened": "Reopened: a worker will pick the task up again.",
	"undone":   "Undone: nothing was recorded or landed; the question waits for your answer again.",
	"late":     "Too late to undo: the answer was recorded already."}

func (s *Server) taskPage(w http.ResponseWriter, r *http.Request) {
	v, code := s.taskView(r)
	if v.Task != nil {
		for _, qid := range strings.Split(r.URL.Query().Get("answered"), ",") {
			if i := slices.IndexFunc(v.Task.Questions, func(q task.Question) bool { return q.ID == qid }); i >= 0 {
				v.Saved = append(v.Saved, questionName(v.Task.Questions[i]))
			}
		}
		v.Notice = notices[r.URL.Query().Get("done")]
	}
	s.render(w, r, code, "task", v.Title, v)
}

// questionName is a question in a few words, for messages: its header,
// or its first line.
func questionName(q task.Question) string {
	name := q.Header
	if name == "" {
		name, _, _ = strings.Cut(strings.TrimSpace(q.Question), "\n")
	}
	if r := []rune(name); len(r) > 80 {
		name = string(r[:79]) + "…"
	}
	return name
}

// taskView reads the task the request names; code is 404 when there is none.
func (s *Server) taskView(r *http.Request) (*taskView, int) {
	key, id := r.PathValue("repo"), r.PathValue("id")
	v := &taskView{Title: id, Key: key, CSRF: s.csrf, Me: s.me()}
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
	t := v.Task
	v.Title = id + " " + t.Title
	v.Measured = t.Measure(s.o.Now()).Text()
	v.PlanTitle, v.Plan = shownPlan(t)
	v.AnswerURL = "/r/" + url.PathEscape(key) + "/t/" + url.PathEscape(id) + "/answer"
	v.Questions, v.Open = round(t)
	v.Held, v.UndoURL = s.heldUntil(key, id), "/r/"+url.PathEscape(key)+"/t/"+url.PathEscape(id)+"/undo"
	v.fileBase = "/r/" + url.PathEscape(key) + "/t/" + url.PathEscape(id) + "/file"
	if v.Open > 0 {
		for _, name := range st.TemplateNames() {
			if text, err := st.Template(name); err == nil {
				v.Templates = append(v.Templates, templateView{name, text})
			}
		}
		open := t.OpenQuestions()
		v.Single = len(open) == 1 && open[0].Kind() == task.ApprovalQuestion
		v.Next = s.next(st.Root, id)
	}
	v.Runs = runs(st, id)
	if t.State == task.InProgress && len(v.Runs) == 0 {
		v.Steps = store.Steps(st, id, 8)
	}
	if p, err := git.FindParked(st.Root, id); err == nil && p.Commit != "" {
		if d, err := p.Diff(false); err == nil {
			v.Files, v.DiffCut = git.DiffFiles(d)
		}
	}
	v.Attempts = attemptViews(st, t)
	return v, http.StatusOK
}

// shownPlan is t's plan and where it stands ("approved as edited"), once
// approved or sent back; a plan waiting for approval is its question's,
// to edit in place.
func shownPlan(t *task.Task) (standing, text string) {
	title, text := plan.Shown(t)
	if strings.HasSuffix(title, "(waiting for approval)") {
		return "", ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(title, "plan ("), ")"), text
}

// round is the questions of the task's latest round of asking: the ones
// waiting and those answered beside them, numbered as asked.
func round(t *task.Task) (qs []questionView, open int) {
	waiting := t.OpenQuestions()
	var since time.Time
	for _, q := range waiting {
		if since.IsZero() || q.AskedAt.Before(since) {
			since = q.AskedAt
		}
	}
	if len(waiting) == 0 {
		for _, q := range t.Questions {
			if q.Status == task.QuestionAnswered && q.AskedAt.After(since) {
				since = q.AskedAt
			}
		}
	}
	for _, q := range t.Questions {
		switch i := slices.IndexFunc(waiting, func(w task.Question) bool { return w.ID == q.ID }); {
		case i >= 0:
			qs = append(qs, questionView{Q: waiting[i], Waits: true})
			waiting = slices.Delete(waiting, i, i+1)
		case q.Status == task.QuestionAnswered && !q.AskedAt.Before(since):
			e, _ := t.LastAnswer(q.ID)
			qs = append(qs, questionView{Q: q, Answer: e})
		}
	}
	for _, q := range waiting { // a flat question, not among t.Questions
		qs = append(qs, questionView{Q: q, Waits: true})
	}
	for i := range qs {
		qs[i].N = i + 1
		if qs[i].Waits {
			open++
		}
	}
	return qs, open
}

// next is the first task waiting on an answer, in the inbox's order,
// other than the one shown.
func (s *Server) next(root, id string) *store.RunningTask {
	roots, _ := s.o.Repos()
	for _, c := range cards(store.ReadInbox(roots).Asking) {
		if c.Path != root || c.Task.ID != id {
			return &c.RunningTask
		}
	}
	return nil
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
