// Package stats computes a repository's human-loop figures (how long agents
// wait on people, how long people take, what a landed task costs) from its
// tasks' histories alone, so that every machine's work counts and anyone
// with the repository gets the same figures.
package stats

import (
	"slices"
	"time"

	"github.com/bh-tracker/bh/task"
)

// Figures are the human-loop figures of a window of time. Their JSON names
// are stable (cmd/JSON.md); times are in seconds, shares run from 0 to 1.
type Figures struct {
	Since  time.Time `json:"since"`
	Until  time.Time `json:"until"`
	Landed int       `json:"landed"` // tasks whose work landed in the window
	// From a task's first claim to its first question, for first questions
	// asked in the window.
	TimeToFirstQuestion Quantiles `json:"timeToFirstQuestion"`
	QuestionsPerTask    float64   `json:"questionsPerTask"` // questions each landed task asked, on average
	AskedWhen           AskedWhen `json:"askedWhen"`
	HumanLatency        Latency   `json:"humanLatency"`
	// Time the landed tasks spent awaiting a human ÷ their time from claim
	// to landing.
	BlockedShare  float64 `json:"blockedShare"`
	RoundsToGreen Rounds  `json:"roundsToGreen"`
	// USD the landed tasks' runs cost, on average over the CostKnown of
	// them whose agent reported a cost (a command agent may report none:
	// its tasks count as unknown, not as free).
	CostPerLanded float64 `json:"costPerLanded"`
	CostKnown     int     `json:"costKnown"`
	LimitPauses   int     `json:"limitPauses"` // runs cut short by a usage limit in the window
}

// Quantiles are the median and 90th percentile (nearest rank) of Count
// durations, and their sum, in seconds.
type Quantiles struct {
	Count int     `json:"count"`
	Sum   float64 `json:"sum"`
	P50   float64 `json:"p50"`
	P90   float64 `json:"p90"`
}

// Latency is how long people took from a question asked to its answer,
// for answers given in the window: overall, and by the channel answered
// through. Defaults used at expiry count in their channel only.
type Latency struct {
	Quantiles
	ByChannel map[string]Quantiles `json:"byChannel"`
}

// AskedWhen is where in their work the landed tasks asked their questions:
// the share of the agent's time from claim to landing (time awaiting a
// human left out) elapsed when each was asked, counted in tenths.
//
// Planning counts those asked in a planning run (plan: true: the
// agent's questions there and the plan's approval), PlanningShare their
// share of all; FirstTenthPlanned and FirstTenthUnplanned are FirstTenth
// for the tasks that planned and for the others: whether planning moved
// the questions earlier.
type AskedWhen struct {
	Tenths              [10]int `json:"tenths"`
	FirstTenth          float64 `json:"firstTenth"` // the share of questions asked in the first 10%
	Planning            int     `json:"planning"`
	PlanningShare       float64 `json:"planningShare"`
	FirstTenthPlanned   float64 `json:"firstTenthPlanned"`
	FirstTenthUnplanned float64 `json:"firstTenthUnplanned"`
}

// Rounds are the rounds the landed tasks took to get to green, on average:
// rounds of checks (of those that ran checks) and pull request feedback
// rounds (of those that went through a pull request).
type Rounds struct {
	Checks   float64 `json:"checks"`
	Feedback float64 `json:"feedback"`
	Checked  int     `json:"checked"`  // the landed tasks Checks is averaged over
	Reviewed int     `json:"reviewed"` // the landed tasks Feedback is averaged over
}

// The channels of answers that are none of task.Channel's.
const (
	channelDefault = "default" // the question's default, used when it expired
	channelOther   = "other"
)

// channel names the channel of an answer recorded by by, in the words
// every output uses (task.Channel).
func channel(by string) string {
	if ch := task.Channel(by); ch != "" {
		return ch
	}
	return channelOther
}

// Compute reads the figures of the window [since, until] from tasks'
// histories.
func Compute(tasks []*task.Task, since, until time.Time) Figures {
	a := tally{in: func(t time.Time) bool { return !t.Before(since) && !t.After(until) },
		byChannel: map[string][]float64{}, attempts: map[string]float64{}}
	for _, t := range tasks {
		if t.Attempt > 0 { // an attempt's cost is its task's: a landed task costs every attempt
			a.attempts[t.Parent] += t.Spent()
		}
	}
	for _, t := range tasks {
		a.add(t, until)
	}
	return a.figures(since, until)
}

// tally gathers the figures' raw values, task by task.
type tally struct {
	in                        func(time.Time) bool
	firstQ, latency           []float64
	byChannel                 map[string][]float64
	landed, questions, pauses int
	askedAt                   []asked
	blocked, worked           time.Duration
	cost                      float64 // of the landed tasks whose cost is known
	costKnown                 int
	attempts                  map[string]float64 // what the attempts of each task tried side by side cost
	checks, checked           int
	feedback, reviewed        int
}

func (a *tally) figures(since, until time.Time) Figures {
	f := Figures{Since: since.UTC(), Until: until.UTC(), Landed: a.landed, LimitPauses: a.pauses,
		TimeToFirstQuestion: quantiles(a.firstQ),
		HumanLatency:        Latency{Quantiles: quantiles(a.latency), ByChannel: map[string]Quantiles{}},
		QuestionsPerTask:    ratio(float64(a.questions), a.landed),
		CostPerLanded:       ratio(a.cost, a.costKnown), CostKnown: a.costKnown,
		RoundsToGreen: Rounds{Checks: ratio(float64(a.checks), a.checked), Feedback: ratio(float64(a.feedback), a.reviewed),
			Checked: a.checked, Reviewed: a.reviewed}}
	for ch, v := range a.byChannel {
		f.HumanLatency.ByChannel[ch] = quantiles(v)
	}
	if a.worked > 0 {
		f.BlockedShare = a.blocked.Seconds() / a.worked.Seconds()
	}
	f.AskedWhen = askedWhen(a.askedAt)
	return f
}

// asked is one question of a landed task: the share of its work elapsed
// when it was asked, whether in a planning run, and whether its task
// planned.
type asked struct {
	share             float64
	planning, planned bool
}

func askedWhen(qs []asked) AskedWhen {
	var w AskedWhen
	var early, planned [2]int // by whether the task planned: early ones, all
	for _, q := range qs {
		tenth := max(0, min(int(q.share*10), 9))
		w.Tenths[tenth]++
		i := map[bool]int{false: 0, true: 1}[q.planned]
		planned[i]++
		if tenth == 0 {
			early[i]++
		}
		if q.planning {
			w.Planning++
		}
	}
	w.FirstTenth = ratio(float64(w.Tenths[0]), len(qs))
	w.PlanningShare = ratio(float64(w.Planning), len(qs))
	w.FirstTenthUnplanned, w.FirstTenthPlanned = ratio(float64(early[0]), planned[0]), ratio(float64(early[1]), planned[1])
	return w
}

func ratio(x float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return x / float64(n)
}

// quantiles are v's median and 90th percentile by nearest rank: the
// smallest value with at least that share of v at or below it.
func quantiles(v []float64) Quantiles {
	if len(v) == 0 {
		return Quantiles{}
	}
	s := slices.Sorted(slices.Values(v))
	rank := func(pct int) float64 { return s[(pct*len(s)+99)/100-1] } // ceil(pct% of n), in integers
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	return Quantiles{Count: len(s), Sum: sum, P50: rank(50), P90: rank(90)}
}
