package attempts

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
)

// Row is one attempt as the pick shows it beside the others.
type Row struct {
	K       int            `json:"attempt"`
	ID      string         `json:"taskId"`
	Agent   string         `json:"agent,omitempty"`
	Summary string         `json:"summary,omitempty"`
	Commit  string         `json:"commit,omitempty"` // its work: the tip of its branch, or its kept ref
	Base    string         `json:"base,omitempty"`   // where its work starts from
	Files   []git.FileStat `json:"files"`
	Checks  string         `json:"checks"`           // passed, failed: <command>, or none
	Failed  bool           `json:"failed,omitempty"` // the attempt failed: no work of its to land
	CostUSD float64        `json:"costUsd"`
	Took    time.Duration  `json:"-"`
}

// Work is attempt k of task id's commit and the commit it builds on:
// its branch while it has one, else the ref it is kept under once another
// was picked. "" when neither is left.
func Work(r *git.Repo, id string, a *task.Task, target string) (commit, base string, err error) {
	if commit, err = tip(r, id, a); err != nil || commit == "" {
		return "", "", err
	}
	base, err = r.MergeBase(target, commit)
	return commit, base, err
}

// tip is attempt a of task id's commit: its branch's tip while it has
// one, else its ref's; "" when neither is left.
func tip(r *git.Repo, id string, a *task.Task) (string, error) {
	if commit, err := r.BranchTip(slots.Branch(a.ID)); err != nil || commit != "" {
		return commit, err
	}
	return r.Ref(git.AttemptRef(id, a.Attempt))
}

// Compare is the attempts side by side, their work measured against
// target.
func Compare(r *git.Repo, id string, as []*task.Task, target string) ([]Row, error) {
	rows := make([]Row, 0, len(as))
	for _, a := range as {
		row := Row{K: a.Attempt, ID: a.ID, Agent: a.Agent, Summary: a.Summary, Checks: checks(a), CostUSD: a.Spent(),
			Took: took(a), Failed: a.State == task.Failed}
		var err error
		if row.Commit, row.Base, err = Work(r, id, a, target); err != nil {
			return nil, err
		}
		if row.Commit != "" && row.Base != "" {
			if row.Files, err = r.NumStat(row.Base, row.Commit); err != nil {
				return nil, err
			}
			row.Files = slices.DeleteFunc(row.Files, func(f git.FileStat) bool { return strings.HasPrefix(f.Path, ".bh/") })
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// Ask is the pick question for rows, and its context: the attempts side
// by side.
func Ask(rows []Row) (task.Question, string) {
	q := task.Question{Header: Header, Type: task.ChoiceQuestion,
		Question: fmt.Sprintf("%d attempts finished: which one lands?", len(rows))}
	var b strings.Builder
	for _, row := range rows {
		k := strconv.Itoa(row.K)
		q.Options = append(q.Options, task.Option{Label: k, Description: "attempt " + k + ": " + row.Line()})
		fmt.Fprintf(&b, "attempt %s (%s, %s): %s\n  %s\n", k, cmp.Or(row.Agent, "agent"), row.ID, row.Line(),
			cmp.Or(row.Summary, "(no summary)"))
		for _, f := range row.Files {
			fmt.Fprintf(&b, "    %s | +%d -%d\n", f.Path, f.Added, f.Removed)
		}
	}
	q.Options = append(q.Options, task.Option{Label: None,
		Description: "none of these: your comment goes to every attempt, each resumed in its own session"})
	return q, strings.TrimRight(b.String(), "\n")
}

// Best is the attempt the worker picks when no human may (human: false):
// the first that changed files, did not fail, and whose checks did not
// fail; 0 when none did.
func Best(rows []Row) int {
	for _, row := range rows {
		if !row.Failed && len(row.Files) > 0 && !strings.HasPrefix(row.Checks, "failed") {
			return row.K
		}
	}
	return 0
}

// Line is the row in one line: its diffstat, checks, cost and time.
func (row Row) Line() string {
	added, removed := 0, 0
	for _, f := range row.Files {
		added, removed = added+f.Added, removed+f.Removed
	}
	line := fmt.Sprintf("%d files +%d -%d, checks %s, $%.2f, %s", len(row.Files), added, removed, row.Checks,
		row.CostUSD, row.Took.Round(time.Second))
	if row.Failed {
		return "failed, " + line
	}
	return line
}

// checks is how a's last round of checks went.
func checks(a *task.Task) string {
	for i := len(a.History) - 1; i >= 0; i-- {
		if e := a.History[i]; e.Kind == task.EventCheck {
			if e.ExitCode != 0 {
				return "failed: " + e.Command
			}
			return "passed"
		}
	}
	return "none"
}

// took is the time a's runs took, from each start to its end.
func took(a *task.Task) time.Duration {
	var sum time.Duration
	var start time.Time
	for _, e := range a.History {
		switch e.Kind {
		case task.EventRunStarted:
			start = e.At
		case task.EventRunFinished:
			if !start.IsZero() {
				sum += e.At.Sub(start)
				start = time.Time{}
			}
		}
	}
	return sum
}

// Shown is attempt k of task t as bh diff --attempt shows it: the ref
// that holds it, its commit and base, and the diff (or its stat).
type Shown struct {
	Ref, Commit, Base, Diff string
	Paths                   []string
}

// Show is attempt k of t's work, from its branch while it has one, else
// from the ref it is kept under.
func Show(s *store.Store, r *git.Repo, t *task.Task, k int, stat bool) (*Shown, error) {
	as, err := Of(s, t)
	if err != nil {
		return nil, err
	}
	if k < 1 || k > len(as) {
		return nil, fmt.Errorf("%s has no attempt %d (it has %d)", t.ID, k, len(as))
	}
	target, _ := config.Delivery(t, s.Config)
	if target == "" {
		target, _ = r.CurrentBranch() // none: MergeBase says so
	}
	a, sh := as[k-1], &Shown{Ref: git.AttemptRef(t.ID, k)}
	if sh.Commit, sh.Base, err = Work(r, t.ID, a, target); err != nil || sh.Commit == "" {
		return nil, cmp.Or(err, fmt.Errorf("attempt %d of %s (%s) has no work left: no branch, and its ref went after a week", k, t.ID, a.ID))
	}
	if tip, _ := r.BranchTip(slots.Branch(a.ID)); tip == sh.Commit {
		sh.Ref = "refs/heads/" + slots.Branch(a.ID)
	}
	if sh.Paths, err = r.ChangedPaths(sh.Base, sh.Commit); err != nil {
		return nil, err
	}
	sh.Diff, err = r.Diff(sh.Base, sh.Commit, stat)
	return sh, err
}
