package task

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Gate values of a task. Empty follows the config (gate.belowConfidence).
const (
	GateApproval = "approval" // every completion waits for a human's approval
	GateNone     = "none"     // never held for approval, whatever the confidence
)

// What happens to a question nobody answered in time.
const (
	OnTimeoutFail    = "fail"    // the task fails
	OnTimeoutDefer   = "defer"   // the task is put aside
	OnTimeoutDefault = "default" // each question takes its default answer; the task resumes
	OnTimeoutRemind  = "remind"  // remind the human and wait another humanTimeout
)

// OnTimeouts lists the onTimeout values, the default first.
// remind is the default: answering days later is the point of asking.
var OnTimeouts = []string{OnTimeoutRemind, OnTimeoutFail, OnTimeoutDefer, OnTimeoutDefault}

// DefaultHumanTimeout is how long a question waits when neither the task
// nor the config says.
const DefaultHumanTimeout = 24 * time.Hour

// HumanPolicy is a task's human-in-the-loop settings with the config's
// defaults filled in.
type HumanPolicy struct {
	Allowed         bool          // a human may be asked at all (human: false says no)
	Timeout         time.Duration // how long each question waits
	OnTimeout       string        // one of OnTimeouts
	Approval        bool          // gate: approval
	NoGate          bool          // gate: none
	BelowConfidence float64       // completions below this confidence are gated; 0: never
}

// Policy resolves t's settings against c. A bad value does not stop the
// work: it falls back to the default, and the error says what was wrong.
func (t *Task) Policy(c Config) (HumanPolicy, error) {
	p := HumanPolicy{Allowed: t.Human == nil || *t.Human, Timeout: DefaultHumanTimeout,
		OnTimeout: OnTimeoutRemind, BelowConfidence: c.Gate.BelowConfidence}
	var errs []error
	for _, s := range []string{c.HumanTimeout, t.HumanTimeout} {
		if s == "" {
			continue
		}
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("humanTimeout %q: want a positive duration such as 24h", s))
			continue
		}
		p.Timeout = d
	}
	for _, s := range []string{c.OnTimeout, t.OnTimeout} {
		if s == "" {
			continue
		}
		if err := ValidOnTimeout(s); err != nil {
			errs = append(errs, err)
			continue
		}
		p.OnTimeout = s
	}
	switch t.Gate {
	case "":
	case GateApproval:
		p.Approval = true
	case GateNone:
		p.NoGate = true
	default:
		errs = append(errs, fmt.Errorf("gate %q: want %s or %s", t.Gate, GateApproval, GateNone))
	}
	if len(errs) > 0 {
		return p, fmt.Errorf("%s: %w", t.ID, joinErrs(errs))
	}
	return p, nil
}

// ValidOnTimeout checks an onTimeout value.
func ValidOnTimeout(s string) error {
	if !slices.Contains(OnTimeouts, s) {
		return fmt.Errorf("onTimeout %q: want one of %v", s, OnTimeouts)
	}
	return nil
}

func joinErrs(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	msg := errs[0].Error()
	for _, e := range errs[1:] {
		msg += "; " + e.Error()
	}
	return errors.New(msg)
}
