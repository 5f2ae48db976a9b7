package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker"
)

// progress turns the worker's events into lines for a reader (stderr for
// bh worker, stdout for bh demo) or, with --json, into JSON lines on stdout.
type progress struct {
	io     *IOStreams
	w      io.Writer
	json   bool
	lookup func(string) (*task.Task, error) // the task behind an event; may be nil

	mu      sync.Mutex // events and Ctrl-C notices come from different goroutines
	running string     // the task whose agent runs now
	ran     int        // tasks started
}

// eventLine is one event of bh worker --json. Its field names are part of
// bh's interface; "kind" is the worker's event kind (started, finished,
// waiting, recovered, answered) or "stopping" for a Ctrl-C.
type eventLine struct {
	Kind      string    `json:"kind"`
	At        time.Time `json:"at"`
	TaskID    string    `json:"taskId,omitempty"`
	Title     string    `json:"title,omitempty"`
	Outcome   string    `json:"outcome,omitempty"`
	Resume    bool      `json:"resume,omitempty"`
	Session   string    `json:"session,omitempty"`
	Summary   string    `json:"summary,omitempty"`
	Question  string    `json:"question,omitempty"`
	Questions []string  `json:"questions,omitempty"`
	Commit    string    `json:"commit,omitempty"`
	Paths     []string  `json:"paths,omitempty"`
	Elapsed   float64   `json:"elapsedSeconds,omitempty"`
	Error     string    `json:"error,omitempty"`
	RunLog    string    `json:"runLog,omitempty"`
	Force     bool      `json:"force,omitempty"` // stopping: the agent is stopped too
}

func (p *progress) report(e worker.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Kind {
	case worker.Started:
		p.running = e.Task
		p.ran++
	case worker.Finished:
		p.running = ""
	}
	if p.json {
		l := eventLine{Kind: string(e.Kind), At: time.Now().UTC(), TaskID: e.Task, Title: e.Title,
			Outcome: string(e.Outcome), Resume: e.Resume, Session: e.Session, Summary: e.Summary,
			Question: e.Question, Questions: e.Questions, Commit: e.Commit, Paths: e.Paths,
			Elapsed: e.Elapsed.Seconds(), RunLog: p.runLog(e)}
		if e.Err != nil {
			l.Error = e.Err.Error()
		}
		p.writeJSON(l)
		return
	}
	p.human(e)
}

// interrupted tells what a Ctrl-C does now; force is the second one.
func (p *progress) interrupted(force bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		p.writeJSON(eventLine{Kind: "stopping", At: time.Now().UTC(), TaskID: p.running, Force: force})
		return
	}
	switch {
	case p.running == "":
		fmt.Fprintln(p.w, p.io.Yellow("stopping"))
	case !force:
		fmt.Fprintln(p.w, p.io.Yellow(fmt.Sprintf("finishing %s, press Ctrl-C again to stop it", p.running)))
	default:
		fmt.Fprintln(p.w, p.io.Yellow(fmt.Sprintf("stopping %s: its work will be parked", p.running)))
	}
}

func (p *progress) writeJSON(l eventLine) {
	b, _ := json.Marshal(l)
	fmt.Fprintf(p.io.Out, "%s\n", b)
}

func (p *progress) human(e worker.Event) {
	io, w, id := p.io, p.w, p.io.Cyan(e.Task)
	switch e.Kind {
	case worker.Waiting:
		fmt.Fprintln(w, io.Faint("waiting for ready tasks…"))
	case worker.Recovered:
		fmt.Fprintf(w, "↺ %s recovered: %s\n", id, e.Summary)
	case worker.Answered:
		fmt.Fprintf(w, "✎ %s answered: %q\n", id, e.Summary)
	case worker.Started:
		line := fmt.Sprintf("%s %s %s", io.Cyan("▶"), id, io.Bold(e.Title))
		if e.Resume {
			line += io.Faint(fmt.Sprintf(" (resuming session %.8s…)", e.Session))
		}
		fmt.Fprintln(w, line)
	case worker.Finished:
		p.finished(e)
	}
}

func (p *progress) finished(e worker.Event) {
	io, w, id, took := p.io, p.w, p.io.Cyan(e.Task), elapsed(e.Elapsed)
	parked := func() {
		if len(e.Paths) > 0 {
			fmt.Fprintf(w, "  parked: %s %s\n", strings.Join(e.Paths, ", "), io.Faint("(bh diff "+e.Task+")"))
		}
	}
	switch e.Outcome {
	case worker.Completed:
		line := fmt.Sprintf("%s %s completed in %s", io.Green("✓"), id, took)
		if e.Summary != "" {
			line += " — " + e.Summary
		}
		if e.Commit != "" {
			line += io.Faint(fmt.Sprintf(" (commit %.7s)", e.Commit))
		}
		fmt.Fprintln(w, line)
	case worker.Failed:
		fmt.Fprintf(w, "%s %s failed in %s: %s\n", io.Red("✗"), id, took, e.Summary)
		if len(e.Paths) > 0 {
			fmt.Fprintf(w, "  rolled back: %s\n", strings.Join(e.Paths, ", "))
		}
	case worker.AgentError:
		fmt.Fprintf(w, "%s %s failed in %s: agent error: %s\n", io.Red("✗"), id, took, e.Summary)
		if l := p.runLog(e); l != "" {
			fmt.Fprintf(w, "  run log: %s\n", l)
		}
		parked()
	case worker.Blocked:
		fmt.Fprintf(w, "%s %s blocked: %s\n", io.Red("⊘"), id, e.Question)
		parked()
		fmt.Fprintf(w, "  %s\n", io.Faint("once it is unblocked: bh reopen "+e.Task))
	case worker.NeedsInput, worker.Conflict:
		head := "needs human input"
		if e.Outcome == worker.Conflict {
			head = "needs human input: its parked work conflicts with the working tree"
		}
		fmt.Fprintf(w, "%s %s %s\n", io.Magenta("❓"), id, head)
		for _, q := range e.Questions {
			fmt.Fprintf(w, "  Question: %s\n", io.Bold(indentLines(q, "  ")))
		}
		if e.Outcome == worker.NeedsInput {
			parked()
		}
		fmt.Fprintf(w, "  %s\n", io.Faint("answer with: "+p.answerHint(e.Task)))
	case worker.Stopped:
		fmt.Fprintf(w, "⏹ %s stopped after %s; it resumes on the next start\n", id, took)
		parked()
	default:
		fmt.Fprintf(w, "%s %s: %s\n", id, e.Outcome, e.Summary)
	}
}

// answerHint is the bh respond command for the task's pending questions.
func (p *progress) answerHint(id string) string {
	if p.lookup != nil {
		if t, err := p.lookup(id); err == nil && len(t.Pending()) > 0 {
			hint := respondHint(t)
			if qs := t.Pending(); len(qs) == 1 && qs[0].Kind() == task.FreeformQuestion {
				hint += ` "..."`
			}
			return hint
		}
	}
	return "bh respond " + id + ` "..."`
}

// runLog is where the worker kept an agent error's raw output: the task's
// details say so.
func (p *progress) runLog(e worker.Event) string {
	if e.Outcome != worker.AgentError || p.lookup == nil {
		return ""
	}
	t, err := p.lookup(e.Task)
	if err != nil {
		return ""
	}
	log, ok := strings.CutPrefix(t.Details, "run log: ")
	if !ok {
		return ""
	}
	return log
}

// elapsed is a run's duration as people read it: 0.4s, 12s, 3m5s.
func elapsed(d time.Duration) string {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
