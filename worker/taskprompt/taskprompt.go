// Package taskprompt renders what a task's agent is told: the task, or
// on a resume every question and answer so far, a failed check or a
// reviewer's feedback, and the result contract (prompts' templates).
package taskprompt

import (
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/prompts"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/plan"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
)

// Prompt renders what the agent is told for t: the task prompt on a first
// run, the resume prompt (every question and answer so far, and a
// reviewer's feedback on a rejected completion) when resume.
// A resume with nothing answered yet (after a crash or a stop) repeats the
// task prompt in the same session.
// A planning run (plan: true) is told so after it; the run after its
// plan's approval is told to carry out the plan.
func Prompt(s *store.Store, t *task.Task, resume bool) (string, error) {
	set := prompts.Set{Dir: filepath.Join(s.Dir, "prompts")}
	d := Data(s, t)
	if resume && plan.Fresh(t) {
		d.Plan, d.PlanEdited, _ = plan.Approved(t)
		return set.Implement(d)
	}
	out, err := prompt(set, d, t, resume, s.Config.Rounds())
	if err != nil || !plan.Planning(t, s.Config.Plan) {
		return out, err
	}
	more, err := set.Planning(d)
	return strings.TrimSpace(out) + "\n\n" + more, err
}

// prompt is the task, check, review or resume prompt, as t's history
// asks; rounds is how many check rounds go to the agent.
func prompt(set prompts.Set, d prompts.Data, t *task.Task, resume bool, rounds int) (string, error) {
	if ev, ran := ending.FailedCheck(t); resume && ev != nil && !ran {
		d.Check = &prompts.Check{Command: ev.Command, ExitCode: ev.ExitCode, Output: ev.Output, Round: ev.Round,
			Rounds: rounds}
		return set.CheckFailed(d)
	}
	if review, url := ending.PendingFeedback(t); resume && review != "" {
		d.Review, d.PR = review, url
		return set.Review(d)
	}
	if resume && len(d.Rounds) > 0 {
		return set.Resume(d)
	}
	return set.Task(d)
}

// Contract is the result contract for t, which Claude Code also gets as
// its appended system prompt.
func Contract(s *store.Store, t *task.Task) (string, error) {
	return prompts.Set{Dir: filepath.Join(s.Dir, "prompts")}.Contract(Data(s, t))
}

// Data is what t's prompts are rendered from.
func Data(s *store.Store, t *task.Task) prompts.Data {
	d := prompts.Data{ID: t.ID, Title: t.Title, Description: t.Description,
		Type: string(t.Type), Priority: string(t.Priority), Size: string(t.Size), Rounds: rounds(t),
		Feedback: ending.Feedback(ending.Verdict(t))}
	if t.Parent != "" {
		ref := &prompts.Ref{ID: t.Parent}
		if p, err := s.Get(t.Parent); err == nil {
			ref.Title = p.Title
		}
		d.Parent = ref
	}
	for _, id := range t.DependsOn {
		if dep, err := s.Get(id); err == nil && dep.State == task.Closed {
			d.Deps = append(d.Deps, prompts.Dep{ID: dep.ID, Title: dep.Title, Summary: dep.Summary})
		}
	}
	return d
}

// rounds lists every question asked and every answer given so far, in the
// order asked: typed questions from t.Questions, and flat ones (a task
// answered by an older bh or by hand) from the history. Those asked
// before the latest run are marked Earlier: this round's answers are the
// others.
func rounds(t *task.Task) []prompts.Round {
	var out []prompts.Round
	var runOf []int // the run each round was asked in
	seen := map[string]bool{}
	flat := -1 // the flat question still waiting for its answer
	run := 0
	for _, e := range t.History {
		switch e.Kind {
		case task.EventRunStarted:
			run++
		case task.EventInputRequested:
			if e.QuestionID != "" {
				if q := t.QuestionByID(e.QuestionID); q != nil && !seen[q.ID] {
					seen[q.ID] = true
					out, runOf = append(out, round(q)), append(runOf, run)
				}
				continue
			}
			out, runOf = append(out, prompts.Round{Question: e.Text}), append(runOf, run)
			flat = len(out) - 1
		case task.EventInputReceived:
			if e.QuestionID == "" && flat >= 0 {
				out[flat].Answer = e.Text
				flat = -1
			}
		}
	}
	// Questions no event mentions (hand-edited files) still count, as this round's.
	for _, q := range t.Questions {
		if !seen[q.ID] {
			out, runOf = append(out, round(&q)), append(runOf, run)
		}
	}
	latest := 0
	for _, r := range runOf {
		latest = max(latest, r)
	}
	for i := range out {
		out[i].Earlier = runOf[i] < latest
	}
	return out
}

// round is a typed question with its answer and comments on lines.
func round(q *task.Question) prompts.Round {
	r := prompts.Round{Header: q.Header, Question: q.Question, Context: q.Context, Answer: q.AnswerText()}
	for _, c := range q.Comments {
		r.Comments = append(r.Comments, prompts.Comment(c))
	}
	return r
}
