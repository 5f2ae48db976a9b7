package stats

import (
	"time"

	"github.com/bh-tracker/bh/task"
)

// life is what one pass over a task's history gathers.
type life struct {
	claim, firstAsk time.Time // its first claim (or run) and first question
	landed          time.Time // when it was closed, zero if it is not
	awaiting        time.Time // since when it awaits a human, zero if it does not
	blocked         time.Duration
	asks            []time.Duration // the agent's time, from claim, at each question
	planning        []bool          // whether each was asked in a planning run
	cost            float64
	costKnown       bool // a run reported what it cost
	committed       bool
	asked, expired  map[string]time.Time // by question id
	inPlanning      map[string]bool      // the questions asked in a planning run, by id
	planned         bool                 // it had a planning run (a plan asked for approval)
}

func (a *tally) add(t *task.Task, until time.Time) {
	l := life{asked: map[string]time.Time{}, expired: map[string]time.Time{}, inPlanning: map[string]bool{}}
	for _, q := range t.Questions {
		l.inPlanning[q.ID] = q.Planning
		l.planned = l.planned || q.Plan != ""
	}
	for _, e := range t.History {
		if step := lifeSteps[e.Kind]; step != nil {
			step(&l, a, e)
		}
	}
	// Landed: closed with its work committed (a task closed by hand, or
	// with nothing to commit, landed nothing); an attempt lands as its
	// task, which counts its cost.
	if c := a.attempts[t.ID]; c > 0 {
		l.cost, l.costKnown = l.cost+c, true
	}
	if t.Attempt == 0 && t.State == task.Closed && l.committed && !l.claim.IsZero() && a.in(l.landed) {
		a.addLanded(t, &l, until)
	}
}

// lifeSteps is what each kind of event adds to a task's life (and to
// the tally: a question asked or answered, a pause); the other kinds add
// nothing.
var lifeSteps = map[string]func(l *life, a *tally, e task.Event){
	task.EventState:          func(l *life, _ *tally, e task.Event) { l.state(e) },
	task.EventRunStarted:     func(l *life, _ *tally, e task.Event) { l.claimed(e.At) },
	task.EventInputRequested: func(l *life, a *tally, e task.Event) { l.ask(a, e) },
	task.EventInputExpired:   func(l *life, _ *tally, e task.Event) { l.expired[e.QuestionID] = e.At },
	task.EventInputReceived:  func(l *life, a *tally, e task.Event) { l.answer(a, e) },
	task.EventRunFinished:    func(l *life, _ *tally, e task.Event) { l.ran(e) },
	task.EventCommit:         func(l *life, _ *tally, _ task.Event) { l.committed = true },
	task.EventLimitPaused: func(_ *life, a *tally, e task.Event) {
		if a.in(e.At) {
			a.pauses++
		}
	},
}

// ran adds a run's cost: the task's cost is known when one of its runs
// reported some (task.Event.CostReported).
func (l *life) ran(e task.Event) {
	l.cost += e.CostUSD
	l.costKnown = l.costKnown || e.CostReported()
}

func (l *life) claimed(at time.Time) {
	if l.claim.IsZero() {
		l.claim = at
	}
}

func (l *life) state(e task.Event) {
	if e.To == task.InProgress {
		l.claimed(e.At)
	}
	if !l.awaiting.IsZero() && e.To != task.AwaitingInput {
		l.blocked, l.awaiting = l.blockedAt(e.At), time.Time{}
	}
	if e.To == task.AwaitingInput && l.awaiting.IsZero() {
		l.awaiting = e.At
	}
	l.landed = time.Time{}
	if e.To == task.Closed {
		l.landed = e.At
	}
}

// blockedAt is the time spent awaiting a human up to at.
func (l *life) blockedAt(at time.Time) time.Duration {
	if l.awaiting.IsZero() {
		return l.blocked
	}
	return l.blocked + at.Sub(l.awaiting)
}

func (l *life) ask(a *tally, e task.Event) {
	l.asked[e.QuestionID] = e.At
	if l.claim.IsZero() {
		return
	}
	l.asks = append(l.asks, e.At.Sub(l.claim)-l.blockedAt(e.At))
	l.planning = append(l.planning, l.inPlanning[e.QuestionID])
	if l.firstAsk.IsZero() {
		l.firstAsk = e.At
		if a.in(e.At) {
			a.firstQ = append(a.firstQ, e.At.Sub(l.claim).Seconds())
		}
	}
}

func (l *life) answer(a *tally, e task.Event) {
	asked, ok := l.asked[e.QuestionID]
	if !ok || !a.in(e.At) {
		return
	}
	ch, took := channel(e.By), e.At.Sub(asked).Seconds()
	if l.expired[e.QuestionID].Equal(e.At) {
		ch = channelDefault // expiry's default, recorded as an answer at the same instant
	} else {
		a.latency = append(a.latency, took)
	}
	a.byChannel[ch] = append(a.byChannel[ch], took)
}

func (a *tally) addLanded(t *task.Task, l *life, until time.Time) {
	work := l.landed.Sub(l.claim)
	a.landed++
	a.questions += len(l.asks)
	if l.costKnown {
		a.cost, a.costKnown = a.cost+l.cost, a.costKnown+1
	}
	a.worked += work
	a.blocked += l.blocked
	if active := (work - l.blocked).Seconds(); active > 0 {
		for i, d := range l.asks {
			a.askedAt = append(a.askedAt, asked{share: d.Seconds() / active, planning: l.planning[i], planned: l.planned})
		}
	}
	m := t.Measure(until)
	if m.CheckRounds > 0 {
		a.checks, a.checked = a.checks+m.CheckRounds, a.checked+1
	}
	if m.InReview > 0 || m.FeedbackRounds > 0 {
		a.feedback, a.reviewed = a.feedback+m.FeedbackRounds, a.reviewed+1
	}
}
