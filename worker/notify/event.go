package notify

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

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
	// name and path, the first question's choices and the command that
	// answers it, and the task's page in bh serve's inbox ("" when bh serve
	// never ran).
	Repo     string   `json:"repo,omitempty"`
	RepoPath string   `json:"repoPath,omitempty"`
	Choices  []string `json:"choices,omitempty"`
	Respond  string   `json:"respond,omitempty"`
	URL      string   `json:"url,omitempty"`
	// Link is the task's page under a capability that answers its
	// questions once, without bh serve's token (config.Link): what a phone
	// opens. "" when bh serve has not run or the task asks nothing.
	Link string `json:"link,omitempty"`
	// links are Link as sent through ntfy and Slack, by channel: an
	// answer through one is recorded as given by that channel.
	links map[string]string
	// Every question of the ask (the fields above repeat the first), or
	// for input.received every question answered, with the answer.
	Questions []Question `json:"questions,omitempty"`
	// input.received: who answered (By as recorded: "human" for bh
	// respond), through which channel in the word every output uses
	// (task.Channel: cli, board, web, link, ntfy, slack, takeover), and
	// (as for the first question) what.
	By      string `json:"by,omitempty"`
	Channel string `json:"channel,omitempty"`
	Answer  string `json:"answer,omitempty"`
	// Diffstat is the change a waiting gate asks about.
	Diffstat *Diffstat `json:"diffstat,omitempty"`
}

// Question is one question of an event.
type Question struct {
	ID      string   `json:"id"`
	Type    string   `json:"type"`
	Text    string   `json:"text"`
	Choices []string `json:"choices,omitempty"`
	Multi   bool     `json:"multiSelect,omitempty"`
	Gate    bool     `json:"gate,omitempty"` // the approval before committing: reviewed on its page
	Respond string   `json:"respond,omitempty"`
	Answer  string   `json:"answer,omitempty"`
}

// FromTask builds the event name for t, in the repository at root, as it
// stands now: its state, its summary and every question it waits on, each
// with the command that answers it from anywhere, linked to t's page in
// web.
func FromTask(name string, t *task.Task, root string, web config.WebConfig, now time.Time) Event {
	e := Event{
		Name: name, TaskID: t.ID, Title: t.Title, State: string(t.State),
		Question: t.Question, Summary: t.Summary, At: now.UTC(),
		Repo: filepath.Base(root), RepoPath: root, URL: web.TaskURL(root, t.ID),
	}
	for _, q := range t.Pending() {
		eq := Question{ID: q.ID, Type: q.Kind(), Text: q.Question, Respond: task.RespondCommand(t, q, root), Gate: q.Gate}
		if q.Kind() == task.ChoiceQuestion {
			eq.Choices, eq.Multi = q.Labels(), q.MultiSelect
		}
		e.Questions = append(e.Questions, eq)
	}
	if name != task.EventInputReceived && e.gate() {
		e.Diffstat = gateChange(root, t)
	}
	// A link is for the events that ask; input.received says what was answered.
	if l, ok := web.NewLink(root, t, now); ok && name != task.EventInputReceived {
		e.Link = web.LinkURL(l, config.ViaLink)
		e.links = map[string]string{}
		for _, via := range []string{config.ViaNtfy, config.ViaSlack} {
			e.links[via] = web.LinkURL(l, via)
		}
	}
	e.first()
	return e
}

// shown is e with its text through task.SafeText, the one filter of
// what people are shown: every target (ntfy, Slack, a webhook's JSON, a
// command's BH_* environment, the desktop) gets the agent's words as data,
// never as escape sequences. The diffstat's file names stay exact (the
// JSON names real paths); its text form quotes them (shownPath).
func (e Event) shown() Event {
	for _, f := range []*string{&e.Name, &e.TaskID, &e.Title, &e.State, &e.Question, &e.QuestionID, &e.Summary,
		&e.Repo, &e.RepoPath, &e.Respond, &e.By, &e.Answer} {
		*f = task.SafeText(*f)
	}
	e.Choices = safeTexts(e.Choices)
	qs := make([]Question, len(e.Questions))
	for i, q := range e.Questions {
		for _, f := range []*string{&q.ID, &q.Type, &q.Text, &q.Respond, &q.Answer} {
			*f = task.SafeText(*f)
		}
		q.Choices = safeTexts(q.Choices)
		qs[i] = q
	}
	if e.Questions != nil {
		e.Questions = qs
	}
	return e
}

func safeTexts(in []string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = task.SafeText(s)
	}
	return out
}

// gate says whether e asks a gate, the approval before committing.
func (e Event) gate() bool {
	return slices.ContainsFunc(e.Questions, func(q Question) bool { return q.Gate })
}

// linkVia is the answer link as sent through channel via, else the page.
func (e Event) linkVia(via string) string {
	if l := e.links[via]; l != "" {
		return l
	}
	return e.URL
}

// first repeats the first question in the event's flat fields, which
// carried the only one before events carried them all.
func (e *Event) first() {
	if len(e.Questions) == 0 {
		return
	}
	q := e.Questions[0]
	e.QuestionID, e.Question, e.Choices, e.Respond, e.Answer = q.ID, q.Text, q.Choices, q.Respond, q.Answer
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
		"BH_ANSWERED_BY=" + e.By,
		"BH_ANSWERED_VIA=" + e.Channel,
		"BH_ANSWER=" + e.Answer,
		"BH_URL=" + e.URL,
		"BH_LINK=" + e.Link,
		"BH_DIFFSTAT=" + strings.Join(changeLines(e.Diffstat, maxFiles), "\n"),
		"BH_EVENT_JSON=" + string(b),
	}
}
