// Package statstest scripts a repository's history to the minute, with the
// figures bh stats must read from it, for the tests of every side that
// shows them (the package, bh stats, bh serve).
package statstest

import (
	"time"

	"github.com/bh-tracker/bh/task"
)

// Now is when the scripted history is read; the window is the 7 days
// before it.
var Now = time.Date(2026, 1, 7, 9, 0, 0, 0, time.UTC)

var base = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// script writes a task's history: each event at its minute from base.
type script struct{ t *task.Task }

func newTask(id, title string) script {
	t := &task.Task{ID: id, Title: title, Type: "code", Priority: "P2", State: task.Open, CreatedAt: base.Add(-time.Hour)}
	t.Record(t.CreatedAt, task.Event{Kind: task.EventCreated, To: task.Open})
	return script{t}
}

func (s script) at(min int, e task.Event) script {
	s.t.Record(base.Add(time.Duration(min)*time.Minute), e)
	return s
}

func (s script) move(min int, to task.State, by string) script {
	from := s.t.State
	s.t.State = to
	return s.at(min, task.Event{Kind: task.EventState, From: from, To: to, By: by})
}

func (s script) claim(min int) script {
	return s.move(min, task.InProgress, "w1").at(min, task.Event{Kind: task.EventRunStarted, By: "w1"})
}

// ask and answer are a question asked at min (the run ends, the task
// awaits) and answered at min2 by by (the task is open again).
func (s script) ask(min int, q string, cost float64) script {
	return s.at(min, task.Event{Kind: task.EventInputRequested, QuestionID: q}).
		at(min, task.Event{Kind: task.EventRunFinished, CostUSD: cost}).move(min, task.AwaitingInput, "w1")
}

func (s script) answer(min int, q, by string) script {
	return s.at(min, task.Event{Kind: task.EventInputReceived, QuestionID: q, By: by}).move(min, task.Open, by)
}

func (s script) check(min, round, exit int) script {
	return s.at(min, task.Event{Kind: task.EventCheck, Command: "go test ./...", Round: round, ExitCode: exit})
}

// Tasks is the scripted history:
//   - a: claimed at 0, asks at 10 (answered at 40 on the CLI) and at 50
//     (answered at 60 on the web), two rounds of checks, lands at 90 having
//     cost 1.00;
//   - b: claimed at 60, asks at 61 (the board, at 63), a usage limit cuts
//     it at 65, asks at 69 (a phone link, at 70), opens a pull request at
//     80, gets one round of feedback at 100, merged at 120, cost 3.00;
//   - c: claimed at 180, asks at 210 (taken over at 215) and at 240, whose
//     default is used when it expires at 300; a usage limit at 301; not
//     landed;
//   - d: like a, ten days earlier: outside the window;
//   - e: claimed and closed by hand with nothing committed: not landed;
//   - f: tried by two attempts side by side from 200, which cost 0.50 and
//     1.50 (not landed themselves: their task lands), its pick landed at
//     260: it cost 2.00, every attempt counted.
func Tasks() []*task.Task {
	a := newTask("bh-aaaa", "Landed after two answers").claim(0).
		ask(10, "q1", 0.25).answer(40, "q1", "human").claim(40).
		ask(50, "q2", 0.25).answer(60, "q2", "web:alice").claim(60)
	a = a.check(80, 1, 1).check(85, 2, 0).at(90, task.Event{Kind: task.EventRunFinished, CostUSD: 0.5}).
		at(90, task.Event{Kind: task.EventCommit, Commit: "0123456789abcdef0123456789abcdef01234567"}).move(90, task.Closed, "w1")

	b := newTask("bh-bbbb", "Landed through a pull request").claim(60).
		ask(61, "q1", 0.5).answer(63, "q1", "board").claim(63).
		at(65, task.Event{Kind: task.EventLimitPaused, Text: "five-hour limit"}).
		ask(69, "q2", 0.5).answer(70, "q2", "link").claim(70).
		at(80, task.Event{Kind: task.EventRunFinished, CostUSD: 1}).at(80, task.Event{Kind: task.EventCommit}).
		at(80, task.Event{Kind: task.EventPR, Text: "https://github.com/o/r/pull/1"}).move(80, task.InReview, "w1").
		at(100, task.Event{Kind: task.EventFeedback, Text: "rename it"}).move(100, task.Open, "w1").claim(100).
		at(110, task.Event{Kind: task.EventRunFinished, CostUSD: 1}).move(110, task.InReview, "w1").move(120, task.Closed, "w1")

	c := newTask("bh-cccc", "Waiting on a default").claim(180).
		ask(210, "q1", 0.1).answer(215, "q1", "continue:bob").claim(215).
		ask(240, "q2", 0.1).
		at(300, task.Event{Kind: task.EventInputExpired, QuestionID: "q2"}).answer(300, "q2", "w1").
		at(301, task.Event{Kind: task.EventLimitPaused})

	d := newTask("bh-dddd", "Landed long ago").claim(-14400).
		ask(-14395, "q1", 1).answer(-14394, "q1", "human").claim(-14394).
		at(-14390, task.Event{Kind: task.EventLimitPaused}).
		at(-14380, task.Event{Kind: task.EventCommit}).move(-14380, task.Closed, "w1")

	e := newTask("bh-eeee", "Closed by hand").claim(30).move(31, task.Closed, "human")

	f := newTask("bh-ffff", "Tried by two attempts").move(200, task.InProgress, "w1").move(200, task.Open, "w1").
		move(260, task.InProgress, "w1").at(260, task.Event{Kind: task.EventCommit, Text: "attempt 2 (bh-fff2) landed"}).
		move(260, task.Closed, "w1")
	f.t.Attempts = 2
	f1, f2 := attempt(f.t, 1, "bh-fff1", 230, 0.5), attempt(f.t, 2, "bh-fff2", 250, 1.5)
	return []*task.Task{a.t, b.t, c.t, d.t, e.t, f.t, f1.t, f2.t}
}

// attempt is attempt k of t, run from t's claim (200) to min at cost,
// kept on its branch.
func attempt(t *task.Task, k int, id string, min int, cost float64) script {
	a := newTask(id, "attempt of "+t.Title).claim(200).at(min, task.Event{Kind: task.EventRunFinished, CostUSD: cost}).
		at(min, task.Event{Kind: task.EventCommit}).move(min, task.Closed, "w1")
	a.t.Parent, a.t.Attempt = t.ID, k
	return a
}

// Since is the start of the window bh stats --since 7d reads at Now.
var Since = Now.Add(-7 * 24 * time.Hour)

// Want is the figures of Tasks in the window, as bh stats --json prints
// them: worked out by hand from the script above.
const Want = `{
  "since": "2025-12-31T09:00:00Z",
  "until": "2026-01-07T09:00:00Z",
  "landed": 3,
  "timeToFirstQuestion": {"count": 3, "sum": 2460, "p50": 600, "p90": 1800},
  "questionsPerTask": 1.3333333333333333,
  "askedWhen": {"tenths": [1, 1, 1, 0, 1, 0, 0, 0, 0, 0], "firstTenth": 0.25, "planning": 0, "planningShare": 0,
    "firstTenthPlanned": 0, "firstTenthUnplanned": 0.25},
  "humanLatency": {"count": 5, "sum": 2880, "p50": 300, "p90": 1800, "byChannel": {
    "cli": {"count": 1, "sum": 1800, "p50": 1800, "p90": 1800},
    "web": {"count": 1, "sum": 600, "p50": 600, "p90": 600},
    "board": {"count": 1, "sum": 120, "p50": 120, "p90": 120},
    "link": {"count": 1, "sum": 60, "p50": 60, "p90": 60},
    "takeover": {"count": 1, "sum": 300, "p50": 300, "p90": 300},
    "default": {"count": 1, "sum": 3600, "p50": 3600, "p90": 3600}}},
  "blockedShare": 0.20476190476190476,
  "roundsToGreen": {"checks": 2, "feedback": 1, "checked": 1, "reviewed": 1},
  "costPerLanded": 2,
  "costKnown": 3,
  "limitPauses": 2
}`

// Uncosted is a task a command agent landed in the window, its runs
// reporting no cost: claimed at 400, landed at 420.
func Uncosted() *task.Task {
	return newTask("bh-uuuu", "Landed by a command agent").claim(400).
		at(420, task.Event{Kind: task.EventRunFinished}).at(420, task.Event{Kind: task.EventCommit}).
		move(420, task.Closed, "w1").t
}

// Planned is a scripted history of planning, read at Now:
//   - f plans (plan: true): claimed at 0, asks q1 and q2 in its planning
//     run at 2 (answered at 10), asks for its plan's approval (q3) at 15
//     (approved at 20), asks q4 while carrying it out at 80 (answered at
//     85), lands at 100: 82 minutes of the agent's time, its questions at
//     2, 2, 7 and 67 of them;
//   - g does not plan: claimed at 0, asks q1 at 50 (answered at 60), lands
//     at 100: 90 minutes, its question at 50.
func Planned() []*task.Task {
	f := newTask("bh-ffff", "Planned first").claim(0).
		ask(2, "q1", 0.1).at(2, task.Event{Kind: task.EventInputRequested, QuestionID: "q2"}).
		answer(10, "q1", "human").at(10, task.Event{Kind: task.EventInputReceived, QuestionID: "q2", By: "human"}).claim(10).
		ask(15, "q3", 0.1).answer(20, "q3", "human").claim(20).
		ask(80, "q4", 0.5).answer(85, "q4", "human").claim(85).
		at(100, task.Event{Kind: task.EventCommit}).move(100, task.Closed, "w1")
	f.t.Questions = []task.Question{{ID: "q1", Planning: true}, {ID: "q2", Planning: true},
		{ID: "q3", Planning: true, Plan: "1. do it"}, {ID: "q4"}}
	g := newTask("bh-gggg", "Not planned").claim(0).ask(50, "q1", 0.5).answer(60, "q1", "human").claim(60).
		at(100, task.Event{Kind: task.EventCommit}).move(100, task.Closed, "w1")
	return []*task.Task{f.t, g.t}
}

// WantPlanned is where Planned's questions were asked, as bh stats --json
// prints its askedWhen: three of the five in planning, all three in the
// first tenth of f's time, which asked three of its four there; g's one
// question came at 50/90.
const WantPlanned = `{"tenths": [3, 0, 0, 0, 0, 1, 0, 0, 1, 0], "firstTenth": 0.6, "planning": 3, "planningShare": 0.6,
  "firstTenthPlanned": 0.75, "firstTenthUnplanned": 0}`
