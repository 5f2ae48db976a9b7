package worker

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/worker/jail"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// runLog is one run's log in .bh/runs/<id>/: the prompt, then the agent's
// stdout as it comes (so a run that is killed or times out leaves what it
// did), then its stderr and how it ended.
type runLog struct {
	f    *os.File
	rel  string // relative to the repository; "" when it could not be made
	live int64  // bytes of stdout written as they came
}

// openLog starts r's log. A log that cannot be written costs the run nothing.
func (w *worker) openLog(r *run) *runLog {
	name := r.started.UTC().Format("20060102T150405.000000000Z") + ".log"
	dir, err := jail.OwnRunDir(w.s, r.t.ID)
	if err != nil {
		return &runLog{}
	}
	f, err := jail.CreateNew(filepath.Join(dir, name), 0o644)
	if err != nil {
		return &runLog{}
	}
	fmt.Fprintf(f, "task: %s\nsession: %s\nstarted: %s\n\n----- prompt -----\n%s\n----- stdout -----\n",
		r.t.ID, r.session, r.started.UTC().Format(time.RFC3339), r.prompt)
	return &runLog{f: f, rel: filepath.ToSlash(filepath.Join(".bh", "runs", r.t.ID, name))}
}

// writer is where the agent's stdout goes as it comes.
func (l *runLog) writer() io.Writer {
	if l.f == nil {
		return nil
	}
	return l
}

func (l *runLog) Write(p []byte) (int, error) {
	n, err := l.f.Write(p)
	l.live += int64(n)
	return n, err
}

// close ends the log with the agent's stderr and how the run ended, and
// returns its path ("" when there is none).
func (l *runLog) close(r *run, out *agent.Outcome, runErr error) string {
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
		time.Since(r.started).Round(time.Millisecond))
	if runErr != nil {
		fmt.Fprintf(l.f, "error: %v\n", runErr)
	}
	if out != nil && out.Turns > 0 {
		fmt.Fprintf(l.f, "stats: %s\n", runStats(out))
	}
	l.f.Close()
	return l.rel
}

// runStats is a run's turns, duration and cost, as the agent reported them.
func runStats(out *agent.Outcome) string {
	if out == nil || out.Turns == 0 && len(out.Denials) == 0 {
		return ""
	}
	s := fmt.Sprintf("%d turns, %s", out.Turns, out.Duration.Round(100*time.Millisecond))
	if out.CostUSD > 0 {
		s += fmt.Sprintf(", $%.4f", out.CostUSD)
	}
	if len(out.Denials) > 0 {
		s += "; denied: " + strings.Join(out.Denials, "; ")
	}
	return s
}

const base36 = "0123456789abcdefghijklmnopqrstuvwxyz"

// newQuestionID is a short correlation id, unique within the task, that
// ties a question to its answer in the history and on the command line.
func newQuestionID(t *task.Task) string {
	for {
		id := []byte("q")
		for range 4 {
			n, _ := rand.Int(rand.Reader, big.NewInt(36))
			id = append(id, base36[n.Int64()])
		}
		if findQuestion(t, string(id)) == nil {
			return string(id)
		}
	}
}
