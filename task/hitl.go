package task

import (
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

// ValidOnTimeout checks an onTimeout value.
func ValidOnTimeout(s string) error {
	if !slices.Contains(OnTimeouts, s) {
		return fmt.Errorf("onTimeout %q: want one of %v", s, OnTimeouts)
	}
	return nil
}
