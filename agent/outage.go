package agent

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
)

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

// apiOutage classifies an API's answer by its status (0: none), "" when
// that says nothing. A gateway's 502 or 504 whose words msg say the API
// could not be reached (bh's egress proxy: "502 dial tcp …: connection
// refused") is unreachable, not overloaded: nothing answered.
func apiOutage(status int, msg string) Outage {
	if unreached(status) && outageOfText(msg) == OutageUnreachable {
		return OutageUnreachable
	}
	return outageOfStatus(status)
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

// outageOfText classifies what an agent printed when its API gave no
// status: claude's result text ("API Error: Connection refused …
// (ECONNREFUSED)", "… (ENOTFOUND)", "Request timed out …", "Not logged in
// · Please run /login", as claude 2.1.330 words them), codex's error
// message.
func outageOfText(msg string) Outage {
	m := strings.ToLower(msg)
	switch {
	case strings.Contains(m, "not logged in") || strings.Contains(m, "please run /login"):
		return OutageAuth
	case limitWords().MatchString(msg):
		return OutageLimit
	case slices.ContainsFunc(unreachableWords, func(w string) bool { return strings.Contains(m, w) }):
		return OutageUnreachable
	}
	return ""
}

var unreachableWords = []string{"econnrefused", "connection refused", "enotfound", "eai_again", "dns error",
	"failed to lookup address", "can't reach the api", "request timed out", "etimedout",
	"connection timed out", "error sending request", "network is unreachable", "econnreset"}

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
	case OutageUnreachable:
		return "the agent's API cannot be reached"
	}
	return fmt.Sprintf("outage %q", string(o))
}
