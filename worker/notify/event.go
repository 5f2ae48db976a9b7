package notify

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
)

// Notification event names. The input.* ones are task history kinds too.
const (
	EventInputRequested = task.EventInputRequested
	EventInputReceived  = task.EventInputReceived
	EventInputExpired   = task.EventInputExpired
	EventInputReminder  = "input.reminder"
	EventTaskCompleted  = "task.completed"
	EventTaskFailed     = "task.failed"
	EventTaskBlocked    = "task.blocked"
	EventTaskStopped    = "task.stopped" // a run stopped by Ctrl-C, bh stop or a dead worker's recovery
	// AllEvents in a notifier's events list matches every event.
	AllEvents = "*"
)

// known is what a config's events list may name.
var known = []string{
	EventInputRequested, EventInputReceived, EventInputExpired, EventInputReminder,
	EventTaskCompleted, EventTaskFailed, EventTaskBlocked, EventTaskStopped, AllEvents,
}

// Event is one notification. Its JSON is the webhook body and BH_EVENT_JSON,
// so field names are part of bh's interface: keep them stable.
type Event struct {
	Name       string    `json:"event"`
	TaskID     string    `json:"taskId"`
	Title      string    `json:"title"`
	State      string    `json:"state,omitempty"`
	Question   string    `json:"question,omitempty"`
	QuestionID string    `json:"questionId,omitempty"`
	Summary    string    `json:"summary,omitempty"`
	At         time.Time `json:"at"`
	// Where the task is and how to answer from anywhere: the repository's
	// name and path, the pending question's choices, the command, and the
	// task's page in bh serve's inbox ("" when bh serve never ran).
	Repo     string   `json:"repo,omitempty"`
	RepoPath string   `json:"repoPath,omitempty"`
	Choices  []string `json:"choices,omitempty"`
	Respond  string   `json:"respond,omitempty"`
	URL      string   `json:"url,omitempty"`
}

// In places e in the repository at root, with the command that answers it
// and web's page of the task.
func (e Event) In(root string, web task.WebConfig) Event {
	e.Repo, e.RepoPath = filepath.Base(root), root
	e.URL = web.TaskURL(root, e.TaskID)
	if e.QuestionID != "" {
		e.Respond = fmt.Sprintf("bh respond %s --repo %s \"...\"", e.TaskID, root)
	}
	return e
}

// FromTask builds the event name for t as it stands now: its state, its
// summary and the first question it waits on (the one t.Question names
// when the agent asked several), with that question's choices.
func FromTask(name string, t *task.Task, now time.Time) Event {
	e := Event{
		Name: name, TaskID: t.ID, Title: t.Title, State: string(t.State),
		Question: t.Question, Summary: t.Summary, At: now.UTC(),
	}
	if p := t.Pending(); len(p) > 0 {
		q := p[0]
		e.QuestionID, e.Question = q.ID, q.Question
		if len(q.Options) > 0 {
			e.Choices = q.Labels()
		}
	}
	return e
}

// env is the environment a command notifier sees on top of bh's own.
func (e Event) env() []string {
	b, _ := json.Marshal(e) // cannot fail: strings and a time
	return []string{
		"BH_EVENT=" + e.Name,
		"BH_TASK_ID=" + e.TaskID,
		"BH_TASK_TITLE=" + e.Title,
		"BH_QUESTION=" + e.Question,
		"BH_QUESTION_ID=" + e.QuestionID,
		"BH_STATE=" + e.State,
		"BH_SUMMARY=" + e.Summary,
		"BH_REPO=" + e.Repo,
		"BH_CHOICES=" + strings.Join(e.Choices, ", "),
		"BH_RESPOND=" + e.Respond,
		"BH_URL=" + e.URL,
		"BH_EVENT_JSON=" + string(b),
	}
}
