package result

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/bh-tracker/bh/agent"
)

// OutageFile, in a result, says the pod's agent met an outage (its usage
// limit, its API unreachable or refusing its key): no work of the task's.
const OutageFile = Dir + "/outage.json"

// Outage is what a pod says of its agent's outage. The worker reads it
// as a description and nothing more: a known kind, bounded words, a
// reset time; it pauses on it as on a local agent's (agent.RunError).
type Outage struct {
	Outage agent.Outage `json:"outage"`
	Reason string       `json:"reason,omitempty"`
	Limit  *agent.Limit `json:"limit,omitempty"`
}

// OutageOf is the outage err is (agent.OutageOf), to carry in a result;
// nil when err is the task's own trouble.
func OutageOf(err error) *Outage {
	o := agent.OutageOf(err)
	if o == "" {
		return nil
	}
	out := &Outage{Outage: o, Reason: err.Error()}
	if re, ok := errors.AsType[*agent.RunError](err); ok {
		out.Limit = re.Limit
	}
	return out
}

// maxWords bounds each text a pod's outage carries.
const maxWords = 500

// readOutage reads a result's outage file: a kind it does not know, or
// what is no outage file, is refused; words are cut short and made plain.
func readOutage(b []byte) (*Outage, error) {
	var o Outage
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, err
	}
	switch o.Outage {
	case agent.OutageMissing, agent.OutageAuth, agent.OutageOverloaded, agent.OutageLimit, agent.OutageUnreachable:
	default:
		return nil, fmt.Errorf("no outage bh knows: %.40q", o.Outage)
	}
	o.Reason = Plain(o.Reason)
	if l := o.Limit; l != nil {
		if l.Status != agent.LimitRejected || o.Outage != agent.OutageLimit {
			o.Limit = nil
		} else {
			o.Limit = &agent.Limit{Status: l.Status, ResetsAt: l.ResetsAt.Round(time.Second), Window: Plain(l.Window),
				Account: Plain(l.Account), Said: Plain(l.Said)}
		}
	}
	return &o, nil
}

// RunError is the outage as a local agent's run reports it.
func (o *Outage) RunError(id string) *agent.RunError {
	why := fmt.Sprintf("%s: the agent in its pod: %s", id, o.Reason)
	return &agent.RunError{Reason: why, ExitCode: -1, Outage: o.Outage, Limit: o.Limit}
}

// Plain is s cut to maxWords runes, on one line, without control runes.
func Plain(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || !unicode.IsPrint(r) && r != ' ' {
			return ' '
		}
		return r
	}, s)
	if r := []rune(s); len(r) > maxWords {
		s = string(r[:maxWords]) + "…"
	}
	return s
}
