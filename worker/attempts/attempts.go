// Package attempts tries one task with several agents side by side
// (attempts: N) and lets the human pick one. Each attempt is a task of its
// own (Parent: the task tried, Attempt: its number, land: branch), so that
// attempts take worker slots as tasks do (-j N holds), run to their end
// with their checks, ask their questions marked with their number, and are
// resumed in their own sessions; the task tried waits on them
// (dependsOn) and then asks one question, the pick, with every attempt's
// diffstat, checks, cost, time and summary side by side. The worker acts on
// the answer: the picked attempt lands as a kept branch does (bh land),
// the others leave their branches for refs/bh/attempts/<id>/<k>, kept a
// week; "none" sends the human's feedback to every attempt.
package attempts

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

// Header marks the pick question.
const Header = "Attempts"

// None is the pick's answer that takes none of the attempts.
const None = "none"

// Kept is how long attempts not picked stay readable under their refs.
const Kept = 7 * 24 * time.Hour

// IsPick reports whether q is the pick question.
func IsPick(q *task.Question) bool { return q.Header == Header && q.Kind() == task.ChoiceQuestion }

// Of is t's attempt tasks, by number: those it waits on.
func Of(s *store.Store, t *task.Task) ([]*task.Task, error) {
	var out []*task.Task
	for _, id := range t.DependsOn {
		k, err := s.Get(id)
		if err != nil {
			return nil, fmt.Errorf("attempts of %s: %w", t.ID, err)
		}
		if k.Parent == t.ID && k.Attempt > 0 {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b *task.Task) int { return cmp.Compare(a.Attempt, b.Attempt) })
	return out, nil
}

// New is attempt k of n of t: t's work and policy, its agent in turn,
// kept on its own branch for the pick, and its share of t's budget
// (limit, what t may spend in all): all attempts together keep to it.
// With t's plan: each attempt plans, in its own session, which then
// carries out its own plan once approved: a plan belongs to the session
// that made it, and the task tried runs no agent of its own.
func New(t *task.Task, k int, limit float64) *task.Task {
	a := &task.Task{Title: task.AttemptTitle(k, t.Attempts, t.Title), Description: t.Description, Type: t.Type,
		Priority: t.Priority, Size: t.Size, Parent: t.ID, Labels: slices.Clone(t.Labels), Attempt: k,
		Human: t.Human, HumanTimeout: t.HumanTimeout, OnTimeout: t.OnTimeout, Target: t.Target,
		Land: task.LandBranch, Gate: task.GateNone, Checks: slices.Clone(t.Checks), Sandbox: t.Sandbox,
		Budget: limit / float64(t.Attempts)}
	if t.Plan != nil {
		a.Plan = new(*t.Plan)
	}
	if t.AgentSettings != nil {
		s := *t.AgentSettings
		a.AgentSettings = &s
	}
	if agent := t.AttemptAgent(k); agent != "" {
		if a.AgentSettings == nil || a.AgentSettings.Agent != agent {
			a.AgentSettings = &task.AgentSettings{Agent: agent} // another agent: t's model and modes are not its
		}
	}
	return a
}

// Fan creates t's attempts (those a crash left made are taken again) and
// gives t back, open, waiting on them.
func Fan(s *store.Store, t *task.Task, limit float64, at time.Time, by string) error {
	ids, err := made(s, t)
	if err != nil {
		return err
	}
	for k, id := range ids {
		if id == "" {
			a, err := s.Create(New(t, k+1, limit))
			if err != nil {
				return fmt.Errorf("attempt %d of %s: %w", k+1, t.ID, err)
			}
			ids[k] = a.ID
		}
	}
	_, err = s.Update(t.ID, func(t *task.Task) error {
		t.DependsOn = slices.Concat(t.DependsOn, slices.DeleteFunc(slices.Clone(ids), func(id string) bool {
			return slices.Contains(t.DependsOn, id)
		}))
		t.Lease = nil
		return t.SetState(task.Open, at, by, fmt.Sprintf("tried by %d attempts side by side: %s", t.Attempts,
			strings.Join(ids, ", ")))
	})
	return err
}

// made is the id of each attempt of t made already, "" for those not.
func made(s *store.Store, t *task.Task) ([]string, error) {
	all, _, err := s.List()
	if err != nil {
		return nil, err
	}
	ids := make([]string, t.Attempts)
	for _, a := range all {
		if a.Parent == t.ID && a.Attempt > 0 && a.Attempt <= t.Attempts {
			ids[a.Attempt-1] = a.ID
		}
	}
	return ids, nil
}

// Picked is the human's answer to t's latest pick, once given and not
// yet acted on (no feedback sent nor commit landed since): the attempt
// picked (1 is the first), or 0 for none of them with the feedback for
// every attempt. q is nil when there is none.
func Picked(t *task.Task) (k int, feedback string, q *task.Question) {
	for i := range t.Questions {
		if IsPick(&t.Questions[i]) {
			q = &t.Questions[i]
		}
	}
	if q == nil || q.Status != task.QuestionAnswered || len(q.Answer) == 0 || actedOn(t, q.ID) {
		return 0, "", nil
	}
	if n, err := strconv.Atoi(q.Answer[0]); err == nil {
		return n, "", q
	}
	return 0, cmp.Or(strings.TrimSpace(q.Comment), "None of the attempts was picked. Look at the task again and improve your work."), q
}

// actedOn reports whether the answer to question qid was acted on.
func actedOn(t *task.Task, qid string) bool {
	answered := false
	for _, e := range t.History {
		answered = answered || e.Kind == task.EventInputReceived && e.QuestionID == qid
		if answered && (e.Kind == task.EventFeedback || e.Kind == task.EventCommit) {
			return true
		}
	}
	return false
}

// Retry sends feedback to attempt a, closed with its work on its branch
// or failed: it opens again, and its agent resumes in its own session with the
// feedback as a reviewer's. One no longer closed has it already (a crash
// cut the round short).
func Retry(s *store.Store, a *task.Task, feedback string, at time.Time, by string) error {
	if a.State != task.Closed && a.State != task.Failed {
		return nil
	}
	_, err := s.Update(a.ID, func(t *task.Task) error {
		t.Record(at, task.Event{Kind: task.EventFeedback, By: by, Text: feedback, Context: "none of the attempts was picked"})
		return t.SetState(task.Open, at, by, "none of the attempts was picked: resumed with the feedback")
	})
	return err
}

// Pending is the attempts not yet at their end (closed, their work on
// their branch, or failed): the pick waits for them.
func Pending(as []*task.Task) []string {
	var out []string
	for _, a := range as {
		if a.State != task.Closed && a.State != task.Failed {
			out = append(out, a.ID)
		}
	}
	return out
}

// Next says what the worker does with t once its pick is answered, ""
// when no pick waits to be acted on.
func Next(t *task.Task) string {
	switch k, _, q := Picked(t); {
	case q == nil:
		return ""
	case k == 0:
		return "the worker sends your feedback to every attempt, each resumed in its own session"
	default:
		return fmt.Sprintf("the worker lands attempt %d as a single run would, and keeps the others under refs/bh/attempts/%s for a week", k, t.ID)
	}
}

// Prune deletes the kept attempts of the tasks whose pick landed more
// than Kept ago, as of now.
func Prune(s *store.Store, r *git.Repo, now time.Time) error {
	ts, _, err := s.List()
	if err != nil {
		return err
	}
	for _, t := range ts {
		if e, ok := landed(t); ok && t.Tried() && now.Sub(e.At) > Kept {
			if err := r.PruneAttempts(t.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// landed is the commit event of t's pick (a tried task commits nothing
// else), if it landed.
func landed(t *task.Task) (task.Event, bool) {
	for i := len(t.History) - 1; i >= 0; i-- {
		if e := t.History[i]; e.Kind == task.EventCommit {
			return e, true
		}
	}
	return task.Event{}, false
}

// Unpicked is why bh land does not land attempt t: its task's pick lands
// it. nil for a task that is no attempt, or once its task's pick was made.
func Unpicked(s *store.Store, t *task.Task) error {
	if p, _ := s.Get(t.Parent); t.Attempt == 0 || p != nil && p.State == task.Closed {
		return nil
	}
	return &ending.NotLandedError{ID: t.ID, State: t.State, Err: ending.ErrNothingToLand, Reason: fmt.Sprintf(
		"it is attempt %d of %s: pick it with bh respond %s --pick %d", t.Attempt, t.Parent, t.Parent, t.Attempt)}
}
