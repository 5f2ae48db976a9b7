// Package runlog writes and reads the log of one agent run, kept in the
// task's run folder (.git/bh/runs/<id>/): the prompt, then the agent's stdout
// as it comes (so a run that is killed or times out leaves what it did),
// then its stderr and how it ended.
package runlog

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
)

// Log is one run's log. Its zero value is a log that could not be made,
// which costs the run nothing.
type Log struct {
	f       *os.File
	rel     string // relative to the repository
	started time.Time
	live    int64 // bytes of stdout written as they came
}

// Start writes the head of task id's log to f, a new file that rel names
// relative to the repository.
func Start(f *os.File, rel, id, session string, started time.Time, prompt string) *Log {
	fmt.Fprintf(f, "task: %s\nsession: %s\nstarted: %s\n\n----- prompt -----\n%s\n----- stdout -----\n",
		id, session, started.UTC().Format(time.RFC3339), prompt)
	return &Log{f: f, rel: rel, started: started}
}

// Writer is where the agent's stdout goes as it comes.
func (l *Log) Writer() io.Writer {
	if l.f == nil {
		return nil
	}
	return l
}

func (l *Log) Write(p []byte) (int, error) {
	n, err := l.f.Write(p)
	l.live += int64(n)
	return n, err
}

// Close ends the log with the agent's stderr and how the run ended, and
// returns its path ("" when there is none).
func (l *Log) Close(out *agent.Outcome, runErr error) string {
	if l.f == nil {
		return ""
	}
	var raw, stderr []byte
	var re *agent.RunError
	if errors.As(runErr, &re) {
		raw, stderr = re.Raw, re.Stderr
	} else if out != nil {
		raw, stderr = out.Raw, out.Stderr
	}
	if l.live == 0 {
		l.f.Write(raw) // an agent that gave its output only at the end
	}
	fmt.Fprintf(l.f, "\n----- stderr -----\n%s\n----- end -----\nelapsed: %s\n", stderr,
		time.Since(l.started).Round(time.Millisecond))
	if runErr != nil {
		fmt.Fprintf(l.f, "error: %v\n", runErr)
	}
	if out != nil && out.Turns > 0 {
		fmt.Fprintf(l.f, "stats: %s\n", Stats(out))
	}
	l.f.Close()
	return l.rel
}

// Stats is a run's turns and duration, as the agent reported them.
func Stats(out *agent.Outcome) string {
	if out == nil || out.Turns == 0 && len(out.Denials) == 0 {
		return ""
	}
	s := fmt.Sprintf("%d turns, %s", out.Turns, out.Duration.Round(100*time.Millisecond)) // its cost: task.Event.CostUSD
	if len(out.Denials) > 0 {
		s += "; denied: " + strings.Join(out.Denials, "; ")
	}
	return s
}
