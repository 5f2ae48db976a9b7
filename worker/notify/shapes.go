package notify

import (
	"github.com/bh-tracker/bh/task"
	"net/url"
	"path"
	"strings"

	"github.com/bh-tracker/bh/task/config"
)

// shape turns an event into a webhook's JSON body.
type shape func(Event) any

// shapeFor picks the body for format and says where it is posted: the
// webhook's URL, except for ntfy, whose JSON goes to the server's root
// (the URL without its last segment) and names the topic (that segment).
func shapeFor(format string, u *url.URL) (string, shape) {
	switch format {
	case config.FormatSlack:
		return u.String(), slack
	case config.FormatNtfy: // its topic is checked with the config
		p := strings.TrimSuffix(u.Path, "/")
		topic := path.Base(p)
		root := *u
		root.Path, root.RawPath = strings.TrimSuffix(path.Dir(p), "/")+"/", ""
		return root.String(), func(e Event) any { return ntfy(topic, e) }
	}
	return u.String(), func(e Event) any { return e }
}

// Slack's incoming webhooks take a fallback text and blocks; Mattermost,
// Rocket.Chat and others read the text.
type slackMessage struct {
	Text   string       `json:"text"`
	Blocks []slackBlock `json:"blocks"`
}

type slackBlock struct {
	Type     string     `json:"type"`
	Text     *slackText `json:"text,omitempty"`
	Elements []any      `json:"elements,omitempty"` // slackText, or slackButton in "actions"
}

type slackText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func slack(e Event) any {
	mrkdwn := func(s string) *slackText { return &slackText{Type: "mrkdwn", Text: s} }
	// The text is what a push notification shows: the question, else the title.
	text := e.Title
	if e.QuestionID != "" && e.Question != "" {
		text, _, _ = strings.Cut(e.Question, "\n")
	}
	m := slackMessage{Text: slackEscape(headline(e) + ": " + text)}
	head := "*" + slackEscape(headline(e)) + "*"
	if e.Title != "" {
		head += "\n" + slackEscape(e.Title)
	}
	m.Blocks = append(m.Blocks, slackBlock{Type: "section", Text: mrkdwn(head)})
	for _, p := range parts(e) {
		switch {
		case p.text != "" && e.QuestionID != "":
			m.Blocks = append(m.Blocks, slackBlock{Type: "section", Text: mrkdwn(slackQuote(p.text))})
		case p.text != "":
			m.Blocks = append(m.Blocks, slackBlock{Type: "section", Text: mrkdwn(slackEscape(p.text))})
		}
		if len(p.choices) > 0 {
			m.Blocks = append(m.Blocks, slackBlock{Type: "section",
				Text: mrkdwn("*Choices:* " + slackEscape(strings.Join(p.choices, " · ")))})
		}
		if p.respond != "" {
			m.Blocks = append(m.Blocks, slackBlock{Type: "context", Elements: []any{
				*mrkdwn("Answer with `" + slackEscape(strings.ReplaceAll(p.respond, "`", "'")) + "`")}})
		}
	}
	if r := review(e); len(r) > 0 { // a code block, where the file names are no markup
		m.Blocks = append(m.Blocks, slackBlock{Type: "section",
			Text: mrkdwn("```\n" + slackEscape(strings.ReplaceAll(strings.Join(r, "\n"), "`", "'")) + "\n```")})
	}
	label := "Answer in bh"
	if e.gate() {
		label = reviewLabel
	}
	switch link := e.links[config.ViaSlack]; {
	case link != "": // a link button opens the page, which answers as slack
		m.Blocks = append(m.Blocks, slackBlock{Type: "actions", Elements: []any{slackButton{Type: "button",
			Text: slackText{Type: "plain_text", Text: label}, URL: link, Style: "primary"}}})
	case e.URL != "":
		m.Blocks = append(m.Blocks, slackBlock{Type: "context", Elements: []any{*mrkdwn("<" + slackEscape(e.URL) + "|open in bh>")}})
	}
	return m
}

// slackButton is a link button (https://api.slack.com/reference/block-kit/block-elements#button).
type slackButton struct {
	Type  string    `json:"type"`
	Text  slackText `json:"text"`
	URL   string    `json:"url"`
	Style string    `json:"style,omitempty"`
}

// slackEscape keeps the agent's text from becoming a mention (<!channel>)
// or a link: Slack reads only &, < and > as markup there.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

func slackQuote(s string) string {
	return "> " + strings.ReplaceAll(slackEscape(s), "\n", "\n> ")
}

// ntfyMessage is ntfy's JSON publishing (https://docs.ntfy.sh/publish/#publish-as-json).
type ntfyMessage struct {
	Topic    string       `json:"topic"`
	Title    string       `json:"title"`
	Message  string       `json:"message"`
	Tags     []string     `json:"tags"`
	Priority int          `json:"priority"`
	Click    string       `json:"click,omitempty"`
	Actions  []ntfyAction `json:"actions,omitempty"`
}

// ntfyTags are emoji short codes, shown before the title.
var ntfyTags = map[string]string{
	task.EventInputRequested: "question", task.EventInputReminder: "alarm_clock", task.EventInputReceived: "speech_balloon",
	task.EventInputExpired: "hourglass", task.EventTaskCompleted: "white_check_mark", task.EventTaskFailed: "x",
	task.EventTaskBlocked: "construction", task.EventTaskStopped: "octagonal_sign",
}

func ntfy(topic string, e Event) any {
	lines := details(e, true)
	m := ntfyMessage{Topic: topic, Title: headline(e), Message: strings.Join(lines, "\n"),
		Tags: []string{ntfyTags[e.Name], "bh"}, Priority: 3, Click: e.linkVia(config.ViaNtfy)}
	if urgent(e) {
		m.Priority = 4
	}
	m.Actions = ntfyActions(e)
	return m
}
