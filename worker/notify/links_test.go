package notify

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

var linkWeb = config.WebConfig{URL: "https://laptop.tailnet.ts.net", Token: "tok", LinkKey: strings.Repeat("ab", 32)}

// waiting is a task waiting on qs, asked at now.
func waiting(qs ...task.Question) *task.Task {
	for i := range qs {
		qs[i].Status, qs[i].AskedAt = task.QuestionPending, now
	}
	return &task.Task{ID: "tm-7", Title: "Add login", State: task.AwaitingInput, Questions: qs}
}

var now = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// Each channel carries its own signed link to the same capability: one
// id, the questions asked, the channel named, expiring with the question
// (else a day), under the public address.
func TestEventLinks(t *testing.T) {
	exp := now.Add(2 * time.Hour)
	tk := waiting(task.Question{ID: "q1", Question: "Ship it?", Type: task.ApprovalQuestion, ExpiresAt: &exp},
		task.Question{ID: "q2", Question: "Why?", Type: task.FreeformQuestion})
	e := FromTask(task.EventInputRequested, tk, "/src/shop", linkWeb, now)
	var ids []string
	for via, u := range map[string]string{config.ViaLink: e.Link, config.ViaNtfy: e.linkVia(config.ViaNtfy), config.ViaSlack: e.linkVia(config.ViaSlack)} {
		tok, ok := strings.CutPrefix(u, linkWeb.URL+"/l/")
		l, err := linkWeb.ReadLink(tok)
		if !ok || err != nil || l.Via != via || l.Task != "tm-7" || l.Repo != config.RepoKey("/src/shop") ||
			!reflect.DeepEqual(l.Questions, []string{"q1", "q2"}) || !l.ExpiresAt().Equal(now.Add(config.LinkTTL)) {
			t.Errorf("%s link %q: %+v %v", via, u, l, err)
		}
		ids = append(ids, l.ID)
	}
	if ids[0] != ids[1] || ids[1] != ids[2] {
		t.Errorf("the channels' links are different capabilities: %v", ids)
	}
	if other := (config.WebConfig{URL: linkWeb.URL, LinkKey: strings.Repeat("cd", 32)}); true {
		if _, err := other.ReadLink(strings.TrimPrefix(e.Link, linkWeb.URL+"/l/")); err == nil {
			t.Error("a link read with another key")
		}
	}
	if r := FromTask(task.EventInputReceived, tk, "/src/shop", linkWeb, now); r.Link != "" {
		t.Errorf("input.received carries a link: %q", r.Link)
	}
	if n := FromTask(task.EventInputRequested, tk, "/src/shop", config.WebConfig{URL: linkWeb.URL}, now); n.Link != "" || n.linkVia(config.ViaNtfy) != n.URL {
		t.Errorf("a link without a key: %q", n.Link)
	}
}

// ntfy's buttons, in its documented JSON (action, label, url, method,
// headers, body, clear): one tap answers an approval or a single choice of
// up to three options; a gate, and anything else, opens the page.
func TestNtfyActions(t *testing.T) {
	approval := task.Question{ID: "q1", Question: "Ship it?", Type: task.ApprovalQuestion}
	choice := func(multi bool, labels ...string) task.Question {
		q := task.Question{ID: "q1", Question: "Which?", Type: task.ChoiceQuestion, MultiSelect: multi}
		for _, l := range labels {
			q.Options = append(q.Options, task.Option{Label: l})
		}
		return q
	}
	for name, tc := range map[string]struct {
		qs   []task.Question
		want []string // label=body of each http action, then "open"
	}{
		"approval":              {[]task.Question{approval}, []string{"Approve=answer=yes&q=q1", "Reject=answer=no&q=q1", "open"}},
		"a gate":                {[]task.Question{{ID: "q1", Question: "Ship it?", Type: task.ApprovalQuestion, Gate: true}}, []string{"review"}},
		"two options":           {[]task.Question{choice(false, "Postgres", "SQLite")}, []string{"Postgres=answer=Postgres&q=q1", "SQLite=answer=SQLite&q=q1", "open"}},
		"three options":         {[]task.Question{choice(false, "a b", "c&d", "e")}, []string{"a b=answer=a+b&q=q1", "c&d=answer=c%26d&q=q1", "e=answer=e&q=q1"}},
		"four options":          {[]task.Question{choice(false, "a", "b", "c", "d")}, []string{"open"}},
		"a multiple choice":     {[]task.Question{choice(true, "a", "b")}, []string{"open"}},
		"in words":              {[]task.Question{{ID: "q1", Question: "Why?"}}, []string{"open"}},
		"two questions at once": {[]task.Question{approval, {ID: "q2", Question: "Why?"}}, []string{"open"}},
	} {
		e := FromTask(task.EventInputRequested, waiting(tc.qs...), "/src/shop", linkWeb, now)
		m := ntfy("bh", e).(ntfyMessage)
		link := e.linkVia(config.ViaNtfy)
		if m.Click != link {
			t.Errorf("%s: click %q, want the ntfy link", name, m.Click)
		}
		var got []string
		for _, a := range m.Actions {
			switch {
			case a.Action == "view" && a.Label == "Open in bh" && a.URL == link && a.Method == "" && a.Body == "":
				got = append(got, "open")
			case a.Action == "view" && a.Label == reviewLabel && a.URL == link && a.Method == "" && a.Body == "":
				got = append(got, "review")
			case a.Action == "http" && a.URL == link+"/act" && a.Method == "POST" && a.Clear &&
				reflect.DeepEqual(a.Headers, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}):
				if _, err := url.ParseQuery(a.Body); err != nil {
					t.Errorf("%s: body %q: %v", name, a.Body, err)
				}
				got = append(got, a.Label+"="+a.Body)
			default:
				t.Errorf("%s: an action not in ntfy's shape: %+v", name, a)
			}
		}
		if !reflect.DeepEqual(got, tc.want) || len(m.Actions) > ntfyMaxActions {
			t.Errorf("%s: actions %q, want %q", name, got, tc.want)
		}
	}
}

// Slack gets a link button to the page, which answers as slack.
func TestSlackLinkButton(t *testing.T) {
	e := FromTask(task.EventInputRequested, waiting(task.Question{ID: "q1", Question: "Ship it?", Type: task.ApprovalQuestion}), "/src/shop", linkWeb, now)
	got := asJSON(t, slack(e))
	blocks := got.(map[string]any)["blocks"].([]any)
	want := asJSON(t, map[string]any{"type": "actions", "elements": []any{map[string]any{"type": "button",
		"text": map[string]any{"type": "plain_text", "text": "Answer in bh"}, "url": e.linkVia(config.ViaSlack), "style": "primary"}}})
	if last := blocks[len(blocks)-1]; !reflect.DeepEqual(last, want) {
		t.Errorf("the last block %v, want %v", last, want)
	}
	if !strings.Contains(e.linkVia(config.ViaSlack), "/l/") {
		t.Errorf("slack's link %q", e.linkVia(config.ViaSlack))
	}
}
