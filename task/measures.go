package task

import (
	"fmt"
	"strings"
	"time"
)

// Measures are what it took a task's work to pass its checks and to be
// merged: read from its history, so they hold whichever machine did it.
type Measures struct {
	CheckRounds    int           `json:"checkRounds,omitempty"`    // rounds of checks run
	Green          bool          `json:"green,omitempty"`          // its last round passed
	InChecks       time.Duration `json:"-"`                        // summed time of every check run
	FeedbackRounds int           `json:"feedbackRounds,omitempty"` // pull request feedback sent back
	InReview       time.Duration `json:"-"`                        // from the pull request's opening to its merge (or now)
	// The two times as bh's JSON names durations.
	InChecksSeconds float64 `json:"inChecksSeconds,omitempty"`
	InReviewSeconds float64 `json:"inReviewSeconds,omitempty"`
}

// Measure reads t's measures as of now.
func (t *Task) Measure(now time.Time) Measures {
	var m Measures
	lastRound, opened := -1, time.Time{}
	for i, e := range t.History {
		switch e.Kind {
		case EventCheck:
			// A round is the checks run on one tree: a new one starts when
			// the round number changes or follows something else.
			if e.Round != lastRound || i == 0 || t.History[i-1].Kind != EventCheck {
				m.CheckRounds++
				m.Green = true
			}
			lastRound = e.Round
			m.InChecks += e.Took
			m.Green = m.Green && e.ExitCode == 0
		case EventFeedback:
			m.FeedbackRounds++
		case EventPR:
			if opened.IsZero() {
				opened = e.At
			}
		}
		if !opened.IsZero() && endsReview(e) {
			m.InReview += e.At.Sub(opened) // merged (closed), or ended otherwise
			opened = time.Time{}
		}
	}
	if !opened.IsZero() && t.State == InReview {
		m.InReview += now.Sub(opened)
	}
	m.InChecksSeconds, m.InReviewSeconds = m.InChecks.Seconds(), m.InReview.Seconds()
	return m
}

// endsReview reports whether e moves a task whose pull request is open out
// of review for good: merged (closed), or ended otherwise.
func endsReview(e Event) bool {
	return e.Kind != EventPR && e.To != "" && e.To != InReview && e.To != Open && e.To != InProgress
}

// Text says the measures in a line, "" when there is nothing to say.
func (m Measures) Text() string {
	var parts []string
	if m.CheckRounds > 0 {
		green := "not green yet"
		if m.Green {
			green = fmt.Sprintf("green after %d round(s)", m.CheckRounds)
		}
		took := ShortDur(m.InChecks)
		if m.InChecks < time.Minute {
			took = fmt.Sprintf("%.1fs", m.InChecks.Seconds())
		}
		parts = append(parts, fmt.Sprintf("checks: %s, %s in checks", green, took))
	}
	if m.InReview > 0 || m.FeedbackRounds > 0 {
		parts = append(parts, fmt.Sprintf("review: %d feedback round(s), %s waiting on review", m.FeedbackRounds, ShortDur(m.InReview)))
	}
	return strings.Join(parts, "; ")
}
