package agent

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// Outage is trouble with the agent itself, its installation or its
// service, rather than with the task: no run can succeed until it passes.
type Outage string

const (
	OutageMissing    Outage = "missing"     // the agent's binary is not installed
	OutageAuth       Outage = "auth"        // the service refuses the credentials (401, 403)
	OutageOverloaded Outage = "overloaded"  // the service is down or overloaded (500, 502, 503, 529)
	OutageLimit      Outage = "usage_limit" // the account's rate or usage limit (429)
)

// Lasting reports whether the outage needs a human (credentials, an
// install) rather than time.
func (o Outage) Lasting() bool { return o == OutageMissing || o == OutageAuth }

// OutageOf is err's outage, "" when err is the task's own trouble.
func OutageOf(err error) Outage {
	var re *RunError
	if errors.As(err, &re) && re.Outage != "" {
		return re.Outage
	}
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		return OutageMissing
	}
	return ""
}

// outageOfStatus classifies an HTTP status the agent's API answered with.
func outageOfStatus(status int) Outage {
	switch status {
	case 401, 403:
		return OutageAuth
	case 429:
		return OutageLimit
	case 500, 502, 503, 504, 529:
		return OutageOverloaded
	}
	return ""
}

func (o Outage) String() string {
	switch o {
	case OutageMissing:
		return "the agent is not installed"
	case OutageAuth:
		return "the agent's API refuses its credentials"
	case OutageOverloaded:
		return "the agent's API is overloaded or down"
	case OutageLimit:
		return "the agent's usage limit is reached"
	}
	return fmt.Sprintf("outage %q", string(o))
}
