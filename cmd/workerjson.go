package cmd

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/ending"
)

// eventLine is one event of bh worker --json. Its field names are part of
// bh's interface, documented in bh worker --help by jsonContract from the
// worker's own lists of kinds and outcomes.
type eventLine struct {
	Kind      string    `json:"kind"`
	At        time.Time `json:"at"`
	TaskID    string    `json:"taskId,omitempty"`
	Title     string    `json:"title,omitempty"`
	Outcome   string    `json:"outcome,omitempty"`
	Resume    bool      `json:"resume,omitempty"`
	Session   string    `json:"sessionId,omitempty"`
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

// jsonContract documents the --json events for bh worker --help, from
// worker.Kinds and ending.Outcomes, so the two never drift apart.
func jsonContract() string {
	return ui.Wrap(`With --json, each line is one object: "kind" is one of `+strings.Join(strs(worker.Kinds), ", ")+
		`, or stopping for a Ctrl-C; "at", "taskId", "title", "summary", "question", "questions", `+
		`"commit", "paths", "elapsedSeconds", "error" and "runLog" say more where they apply. `+
		`A finished or expired event's "outcome" is one of `+strings.Join(strs(ending.Outcomes), ", ")+".", 76)
}

func (p *progress) eventLine(e worker.Event) eventLine {
	l := eventLine{Kind: string(e.Kind), At: time.Now().UTC(), TaskID: e.Task, Title: e.Title,
		Outcome: string(e.Outcome), Resume: e.Resume, Session: e.Session, Summary: e.Summary,
		Question: e.Question, Questions: e.Questions, Commit: e.Commit, Paths: e.Paths,
		Elapsed: e.Elapsed.Seconds(), RunLog: p.runLog(e)}
	if e.Err != nil {
		l.Error = e.Err.Error()
	}
	return l
}

func (p *progress) writeJSON(l eventLine) {
	b, _ := json.Marshal(l)
	fmt.Fprintf(p.io.Out, "%s\n", b)
}

// runLog is where the worker kept an agent error's raw output: the task's
// details say so.
func (p *progress) runLog(e worker.Event) string {
	if e.Outcome != ending.AgentError || p.lookup == nil {
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
