package cmd

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

// hitlFlags are the human-in-the-loop flags that bh add and bh update
// share: whether a human approves, may be asked at all, and what happens
// when nobody answers in time.
type hitlFlags struct {
	gate, humanTimeout, onTimeout string
	human, noHuman                bool
}

var gates = []string{task.GateApproval, task.GateNone}

// register adds the flags to c; clear says how update empties a field.
func (h *hitlFlags) register(c *cobra.Command, clear string) {
	fl := c.Flags()
	fl.StringVar(&h.gate, "gate", "", "whether each completion waits for a human's approval before it is "+
		"committed: `approval|none`"+clear)
	fl.BoolVar(&h.human, "human", true, "whether the agent may ask a human; with --human=false the task fails "+
		"where it would wait for one")
	fl.BoolVar(&h.noHuman, "no-human", false, "same as --human=false")
	fl.StringVar(&h.humanTimeout, "human-timeout", "", "how long a question waits for an answer, 24h unless "+
		"the config says: `DURATION`"+clear)
	fl.StringVar(&h.onTimeout, "on-timeout", "", "what happens when a question times out: `"+
		strings.Join(task.OnTimeouts, "|")+"`"+clear)
	_ = c.RegisterFlagCompletionFunc("gate", cobra.FixedCompletions(gates, cobra.ShellCompDirectiveNoFileComp))
	_ = c.RegisterFlagCompletionFunc("on-timeout",
		cobra.FixedCompletions(task.OnTimeouts, cobra.ShellCompDirectiveNoFileComp))
}

// humanFlag is what --human and --no-human ask for; nil when neither was
// given, so that the config's default holds.
func (h *hitlFlags) humanFlag(c *cobra.Command) (*bool, error) {
	yes, no := c.Flags().Changed("human"), c.Flags().Changed("no-human")
	switch {
	case yes && no && h.human == h.noHuman:
		return nil, usageErrorf("--human=%t and --no-human=%t contradict each other", h.human, h.noHuman)
	case yes:
		v := h.human
		return &v, nil
	case no:
		v := !h.noHuman
		return &v, nil
	}
	return nil, nil
}

// checkGate validates --gate; "" follows the config.
func checkGate(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s != "" && s != task.GateApproval && s != task.GateNone {
		return "", usageErrorf("--gate: unknown gate %q (want one of %v)", s, gates)
	}
	return s, nil
}

// checkHumanTimeout validates --human-timeout; "" follows the config.
func checkHumanTimeout(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if _, err := task.ParseDuration(s); err != nil {
		return "", usageErrorf("--human-timeout: %q is not a positive duration (want one such as 30m, 24h or 72h)", s)
	}
	return s, nil
}

// checkOnTimeout validates --on-timeout; "" follows the config.
func checkOnTimeout(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s != "" && task.ValidOnTimeout(s) != nil {
		return "", usageErrorf("--on-timeout: unknown value %q (want one of %v)", s, task.OnTimeouts)
	}
	return s, nil
}

// policyFields adds a task's human-in-the-loop settings to a field list;
// field skips the empty ones.
func policyFields(io *IOStreams, field func(k, v string), gate string, human *bool, timeout, onTimeout string, review bool) {
	field("gate", gate)
	if human != nil {
		field("human", fmt.Sprint(*human))
	}
	field("human timeout", timeout)
	field("on timeout", onTimeout)
	if review {
		field("needs review", io.Yellow("yes"))
	}
}
