package web

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/outage"
)

// inboxView is the inbox page: a card per task waiting on an answer, the
// failed and blocked ones, and the ones at work.
type inboxView struct {
	Cards     []card
	Attention []store.RunningTask
	Review    []store.RunningTask // pull requests in review, which the worker shepherds
	Running   []store.RunningTask
	Paused    []pausedRepo // repositories whose queue a usage limit holds back
	Skipped   []string
	Error     string
	CSRF      string
	Local     string // the loopback address links point at, if they do
}

// pausedRepo is a repository whose queue a usage limit holds back, in
// words ("paused by the five-hour usage limit until 15:00").
type pausedRepo struct{ Path, Says string }

// card is a task waiting on answers, as the inbox shows it.
type card struct {
	store.RunningTask
	Questions []task.Question // the ones waiting
	AskedAt   time.Time       // the oldest waiting question's
	ExpiresAt *time.Time      // the first to expire
	Gate      bool
	Stat      string // a gate's diff stat, its last line
	Quick     *task.Question
	Held      time.Time // when the answer held for its undo window is recorded
}

// cards orders the tasks waiting on answers by priority, then by how long
// they have waited.
func cards(asking []store.RunningTask) []card {
	var out []card
	for _, rt := range asking {
		c := card{RunningTask: rt, Questions: rt.Task.OpenQuestions()}
		for i, q := range c.Questions {
			if c.AskedAt.IsZero() || q.AskedAt.Before(c.AskedAt) {
				c.AskedAt = q.AskedAt
			}
			if q.ExpiresAt != nil && (c.ExpiresAt == nil || q.ExpiresAt.Before(*c.ExpiresAt)) {
				c.ExpiresAt = q.ExpiresAt
			}
			c.Gate = c.Gate || q.Gate
			if len(c.Questions) == 1 && quick(q) {
				c.Quick = &c.Questions[i]
			}
		}
		if len(c.Questions) > 0 {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b card) int {
		if d := a.Task.Priority.Rank() - b.Task.Priority.Rank(); d != 0 {
			return d
		}
		return a.AskedAt.Compare(b.AskedAt)
	})
	return out
}

// quick says whether one tap answers q: an approval, or a choice of one
// option.
func quick(q task.Question) bool {
	return q.Kind() == task.ApprovalQuestion || (q.Kind() == task.ChoiceQuestion && !q.MultiSelect && len(q.Options) <= 4)
}

func (s *Server) inbox(w http.ResponseWriter, r *http.Request) {
	v := inboxView{CSRF: s.csrf, Local: s.o.LocalLinks}
	roots, err := s.o.Repos()
	if err != nil {
		v.Error = "the registry of repositories cannot be read: " + err.Error()
	}
	for _, root := range roots {
		if st, err := store.Find(root); err == nil {
			if says := outage.HoldsBack(st, s.o.Now()); says != "" {
				v.Paused = append(v.Paused, pausedRepo{root, says})
			}
		}
	}
	in := store.ReadInbox(roots)
	v.Cards, v.Running = cards(in.Asking), in.Running
	v.Attention, v.Review = in.Attention, in.Review
	slices.SortStableFunc(v.Attention, func(a, b store.RunningTask) int { return a.Task.Priority.Rank() - b.Task.Priority.Rank() })
	for i, c := range v.Cards {
		v.Cards[i].Held = s.heldUntil(config.RepoKey(c.Path), c.Task.ID)
		if !c.Gate {
			continue
		}
		if p, err := git.FindParked(c.Path, c.Task.ID); err == nil && p.Commit != "" {
			if stat, err := p.Diff(true); err == nil {
				lines := strings.Split(strings.TrimSpace(stat), "\n")
				v.Cards[i].Stat = strings.TrimSpace(lines[len(lines)-1])
			}
		}
	}
	for _, e := range in.Skipped {
		v.Skipped = append(v.Skipped, e.Error())
	}
	s.render(w, r, http.StatusOK, "inbox", "bh inbox", v)
}
