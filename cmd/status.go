package cmd

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/usertree"
	"github.com/bh-tracker/bh/worker/outage"
	"github.com/spf13/cobra"
)

type StatusOptions struct {
	base
	ID string
}

func newCmdStatus(f *Factory, runF func(*StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{}
	return &cobra.Command{
		Use:   "status <id>",
		Short: "Say where a task stands and what to do next",
		Long: `Say where a task stands: its state and for how long, its agent and session,
the questions it waits on (numbered for bh respond --question, with their
type, options and expiry), the worker that holds it while it runs, whether
parked work waits under refs/bh/parked/<id>, and what to do next.

With --json, print one object: id, title, state, since, agent, sessionId,
summary, waitingSince, waitingSeconds, questions (each with number, type and
respond), lease (with heartbeatAgeSeconds), parked (ref and commit), next,
and, when set, endingWaits, gate, human, humanTimeout, onTimeout and needsReview.`,
		Example: `  bh status a1b2
  bh status a1b2 --json | jq -r '.next[]'`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), args[0]
			return runWith(runF, statusRun, opts)
		},
	}
}

// statusView is bh status --json. Its field names are part of bh's interface.
type statusView struct {
	ID             string           `json:"id"`
	Title          string           `json:"title"`
	State          task.State       `json:"state"`
	Since          time.Time        `json:"since"` // when it entered its state
	Agent          string           `json:"agent,omitempty"`
	SessionID      string           `json:"sessionId,omitempty"`
	Summary        string           `json:"summary,omitempty"`
	WaitingSince   *time.Time       `json:"waitingSince,omitempty"`
	WaitingSeconds int64            `json:"waitingSeconds,omitempty"`
	Questions      []statusQuestion `json:"questions"`
	Lease          *statusLease     `json:"lease,omitempty"`
	Parked         *statusParked    `json:"parked"`
	Next           []string         `json:"next"`
	EndingWaits    string           `json:"endingWaits,omitempty"` // why its decided ending waits (a git lock, say)
	CheckRound     string           `json:"checkRound,omitempty"`  // where its failing checks stand
	Measures       *task.Measures   `json:"measures,omitempty"`    // rounds to green, time in checks and in review
	// Human-in-the-loop settings, as the task file has them.
	Gate         string `json:"gate,omitempty"`
	Human        *bool  `json:"human,omitempty"`
	HumanTimeout string `json:"humanTimeout,omitempty"`
	OnTimeout    string `json:"onTimeout,omitempty"`
	NeedsReview  bool   `json:"needsReview,omitempty"`
	// LastStep is what a running agent did last, or why it waits.
	LastStep *store.StepLine `json:"lastStep,omitempty"`
}

type statusQuestion struct {
	Number int `json:"number"` // for bh respond --question
	task.Question
	Respond string `json:"respond"` // the command that answers it
}

type statusLease struct {
	task.Lease
	HeartbeatAgeSeconds int64 `json:"heartbeatAgeSeconds"`
}

type statusParked struct {
	Ref    string `json:"ref"`
	Commit string `json:"commit"`
}

func statusRun(opts *StatusOptions) error {
	s, t, err := opts.load(opts.ID)
	if err != nil {
		return err
	}
	now := opts.Now().UTC()
	v := newStatusView(s, t, now)
	commit, err := git.ParkedCommit(s.Root, t.ID)
	if err != nil {
		warn(opts.IO, opts.JSON, err)
	} else if commit != "" {
		v.Parked = &statusParked{Ref: git.ParkRef(t.ID), Commit: commit}
	}
	v.Next = statusNext(s, t, &v, now)
	if opts.JSON {
		return writeJSON(opts.IO.Out, v)
	}
	printStatus(opts.IO, now, v)
	return nil
}

// newStatusView is what bh status shows of t, but for its parked work and
// what comes next.
func newStatusView(s *store.Store, t *task.Task, now time.Time) statusView {
	v := statusView{ID: t.ID, Title: t.Title, State: t.State, Since: ui.StateSince(t), Agent: t.Agent,
		SessionID: t.SessionID, Summary: t.Summary, Questions: []statusQuestion{},
		Gate: t.Gate, Human: t.Human, HumanTimeout: t.HumanTimeout, OnTimeout: t.OnTimeout, NeedsReview: t.NeedsReview,
		CheckRound: ending.CheckRound(t, s.Config.Rounds())}
	if m := t.Measure(now); m.Text() != "" {
		v.Measures = &m
	}
	if t.State == task.AwaitingInput {
		at := ui.AskedAt(t)
		v.WaitingSince, v.WaitingSeconds = &at, int64(now.Sub(at)/time.Second)
		for _, q := range t.Numbered() {
			q.Q.Type = q.Q.Kind() // how it is answered, whatever the file says
			v.Questions = append(v.Questions, statusQuestion{Number: q.N, Question: q.Q,
				Respond: task.RespondCommand(t, q.Q, "")})
		}
	}
	if l := t.Lease; l != nil {
		v.Lease = &statusLease{Lease: *l, HeartbeatAgeSeconds: int64(now.Sub(l.Heartbeat) / time.Second)}
	}
	if t.State == task.InProgress {
		v.LastStep = store.LastStep(s, t.ID)
	}
	return v
}

// statusNext is what comes next for t, and what holds it back in the
// worker or the repository; it sets v.EndingWaits on the way.
func statusNext(s *store.Store, t *task.Task, v *statusView, now time.Time) []string {
	next := nextSteps(t, *v, s.Get)
	if t.State == task.Open && len(t.DependsOn) > 0 {
		if all, _, err := s.List(); err == nil {
			if c := task.CycleOf(task.Cycles(all), t.ID); c != nil {
				next = []string{"it is on a " + task.CycleText(c) + " and will never be ready: drop one of them with bh edit " + t.ID}
			}
		}
	}
	if h := outage.HeldNow(s, now); h != nil && t.State == task.Open {
		next = append(next, "the worker is "+h.Says(now))
	}
	if p := outage.PausedNow(s, now); p != nil && t.State == task.Open {
		next = append(next, fmt.Sprintf("the worker holds new runs back until %s: %s",
			p.Until.Local().Format("15:04:05"), p.Reason))
	}
	if t.State == task.InProgress {
		if v.EndingWaits = worker.EndingWaits(s, t.ID); v.EndingWaits != "" {
			next = append(next, "its ending waits ("+v.EndingWaits+"); the worker retries it")
		}
	}
	for _, l := range staleGitLocks(s) {
		next = append(next, "a stale git lock stops git in this repository: "+l+" (bh doctor --fix removes it)")
	}
	if t.NeedsReview {
		next = append(next, "it is marked for review: check its work, "+
			"then bh update "+t.ID+" --needs-review=false")
	}
	return next
}

// staleGitLocks names (repository-relative) the stale git locks in s's
// repository: old, with no git process running there.
func staleGitLocks(s *store.Store) []string {
	r, err := git.Open(s.Root)
	if err != nil {
		return nil
	}
	locks, _ := usertree.Of(r).StaleLocks()
	var out []string
	for _, l := range locks {
		if l.Stale {
			out = append(out, s.Shown(l.Path))
		}
	}
	return out
}
