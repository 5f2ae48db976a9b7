package web

import (
	"cmp"
	"encoding/json"
	"strings"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
)

// Pages say what a human reads in words, never bh's internal names (the
// states' and the history's, the refs work is kept under) nor an agent's
// raw result JSON: these are their words.

// stateWords are the task states as pages say them.
var stateWords = map[task.State]string{
	task.Open: "ready", task.InProgress: "at work", task.AwaitingInput: "waiting on an answer",
	task.InReview: "in review", task.Blocked: "blocked", task.Deferred: "deferred", task.Failed: "failed", task.Closed: "done",
}

func stateText(s task.State) string {
	if w, ok := stateWords[s]; ok {
		return w
	}
	return strings.ReplaceAll(string(s), "_", " ")
}

// eventWords are the history's kinds as pages say them.
var eventWords = map[string]string{
	task.EventCreated: "created", task.EventState: "moved", task.EventUpdated: "changed",
	task.EventInputRequested: "asked", task.EventInputReceived: "answered", task.EventInputExpired: "question expired",
	task.EventRunStarted: "the agent started", task.EventRunFinished: "the agent stopped", task.EventCommit: "committed",
	task.EventRollback: "changes undone", task.EventParked: "work kept", task.EventUnparked: "work taken up again",
	task.EventStopped: "stopped", task.EventSessionLost: "the agent's session was lost; a new one took over",
	task.EventInputUnused: "answer not used", task.EventCheck: "check", task.EventPR: "pull request",
	task.EventFeedback: "review feedback", task.EventLimitPaused: "paused at the usage limit",
	task.EventBudgetCrossed: "stopped at its budget",
}

func eventKind(kind string) string {
	if w, ok := eventWords[kind]; ok {
		return w
	}
	return strings.NewReplacer(".", " ", "_", " ").Replace(kind)
}

// eventText is an event's text, the ref its work is kept under said in
// words ("refs/bh/parked/tm-x: a.go" is "a.go"), and a check's command
// with how it went.
func eventText(id string, e task.Event) string {
	text := strings.ReplaceAll(e.Text, git.ParkRef(id), "the work kept")
	text = strings.TrimPrefix(text, "the work kept: ")
	if e.Kind == task.EventCheck && e.Command != "" {
		how := "passed"
		if e.ExitCode != 0 {
			how = "failed"
		}
		text = strings.TrimSpace(e.Command + ": " + how + " " + text)
	}
	return text
}

// entryView is one line of a run's transcript as a page shows it: who
// said it in words, and what; Code for a tool's call or result.
type entryView struct {
	Who, Text string
	Code      bool
}

// entryWho are the transcript's roles as pages say them.
var entryWho = map[string]string{"user": "bh", "assistant": "agent", "output": "output", "result": "run"}

// entries are a run's transcript in words: a JSON object the agent
// printed (its result, read into the task's summary and questions) is
// left out, and the run's last line says how it ended with the result's
// summary, not its JSON.
func entries(in []agent.Entry) []entryView {
	var out []entryView
	for _, e := range in {
		switch {
		case e.Role == "tool":
			out = append(out, entryView{Text: e.Text, Code: true})
		case e.Role == "output" && jsonObject(e.Text):
		case e.Role == "result":
			out = append(out, entryView{Who: entryWho[e.Role], Text: ended(e.Text)})
		default:
			out = append(out, entryView{Who: cmp.Or(entryWho[e.Role], e.Role), Text: e.Text})
		}
	}
	return out
}

// ended says how a run ended from its result line ("success {json}"):
// "ended", with the result's summary, never its JSON.
func ended(result string) string {
	how, rest, _ := strings.Cut(result, " ")
	text := "ended"
	if how != "success" {
		text += ": " + strings.ReplaceAll(how, "_", " ")
	}
	var r struct{ Summary string }
	switch rest = strings.TrimSpace(rest); {
	case json.Unmarshal([]byte(rest), &r) == nil && r.Summary != "":
		text += ": " + r.Summary
	case rest != "" && !jsonObject(rest):
		text += ": " + rest
	}
	return text
}

// jsonObject says whether s is a JSON object, whole or cut at 200 bytes
// as a transcript cuts a line.
func jsonObject(s string) bool {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") {
		return false
	}
	return json.Valid([]byte(s)) || strings.HasSuffix(s, "...") && strings.Contains(s, `":`)
}
