package notify

import (
	"net/url"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// ntfyAction is one of ntfy's action buttons
// (https://docs.ntfy.sh/publish/#action-buttons): "view" opens url, "http"
// sends method to url with headers and body when tapped.
type ntfyAction struct {
	Action  string            `json:"action"`
	Label   string            `json:"label"`
	URL     string            `json:"url"`
	Method  string            `json:"method,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
	Clear   bool              `json:"clear,omitempty"`
}

// reviewLabel is a gate's button: it opens the page with the change.
const reviewLabel = "Review in bh"

// ntfyMaxActions is as many buttons as ntfy shows.
const ntfyMaxActions = 3

// ntfyActions answer in one tap when that is all the question needs: an
// approval (Approve, Reject, and Open for the page) that is no gate, or a single choice of
// up to three options, asked alone and carried with its answer link. The
// tap POSTs q and answer to the link's /act, which records the answer as
// given by ntfy. Anything else gets the page's Open button.
func ntfyActions(e Event) []ntfyAction {
	link := e.links[config.ViaNtfy]
	if link == "" {
		if e.URL == "" {
			return nil
		}
		return []ntfyAction{{Action: "view", Label: "Open in bh", URL: e.URL}}
	}
	open := ntfyAction{Action: "view", Label: "Open in bh", URL: link}
	if len(e.Questions) != 1 {
		return []ntfyAction{open}
	}
	q := e.Questions[0]
	answer := func(label, value string) ntfyAction {
		return ntfyAction{Action: "http", Label: label, URL: link + "/act", Method: "POST",
			Headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
			Body:    url.Values{"q": {q.ID}, "answer": {value}}.Encode(), Clear: true}
	}
	switch {
	case q.Gate: // approved only where its change is shown
		open.Label = reviewLabel
		return []ntfyAction{open}
	case q.Type == task.ApprovalQuestion:
		return []ntfyAction{answer("Approve", "yes"), answer("Reject", "no"), open}
	case q.Type == task.ChoiceQuestion && !q.Multi && len(q.Choices) <= ntfyMaxActions:
		var out []ntfyAction
		for _, c := range q.Choices {
			out = append(out, answer(c, c))
		}
		if len(out) < ntfyMaxActions {
			out = append(out, open)
		}
		return out
	}
	return []ntfyAction{open}
}
