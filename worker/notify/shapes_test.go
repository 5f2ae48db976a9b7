package notify

import (
	"encoding/json"
	"github.com/bh-tracker/bh/task"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task/config"
)

// received is what a test webhook server was sent: the path (with the
// query) and the body as generic JSON, to compare field by field.
type received struct {
	path string
	body any
}

// postOne sends e to a webhook of format at path on a test server and
// returns what the server received.
func postOne(t *testing.T, format, path string, e Event) received {
	t.Helper()
	got := make(chan received, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body any
		if err := json.Unmarshal(b, &body); err != nil || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("body %s (%v), Content-Type %q", b, err, r.Header.Get("Content-Type"))
		}
		got <- received{r.URL.RequestURI(), body}
	}))
	defer srv.Close()
	n, l := start(t, fast, config.NotifyConfig{Events: []string{"*"}, Webhook: srv.URL + path, Format: format})
	n.Send(e)
	closeNow(t, n)
	if s := l.all(); s != "" {
		t.Errorf("unexpected log: %s", s)
	}
	close(got)
	if len(got) != 1 {
		t.Fatalf("the server got %d requests, want 1", len(got))
	}
	return <-got
}

// asJSON is v as generic JSON, as the server decoded it.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// The agent's question tries to ping the channel and plant a link.
var question = Event{Name: task.EventInputRequested, TaskID: "tm-7", Title: "Add login", State: "awaiting_input",
	Question: "OAuth <!channel> & <http://evil|click>?\nline 2\nline 3\nline 4\nline 5", QuestionID: "q1",
	Choices: []string{"oauth", "password"}, Repo: "shop", RepoPath: "/src/shop",
	Respond: `bh respond tm-7 --repo /src/shop "..."`, URL: "http://127.0.0.1:7070/r/shop-1a2b3c/t/tm-7",
	At: time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC)}

func TestSlackShape(t *testing.T) {
	got := postOne(t, config.FormatSlack, "/services/T0/B0/SECRET", question)
	quoted := "OAuth &lt;!channel&gt; &amp; &lt;http://evil|click&gt;?"
	want := map[string]any{
		"text": "bh: tm-7 input requested in shop: " + quoted,
		"blocks": []any{
			map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn",
				"text": "*bh: tm-7 input requested in shop*\nAdd login"}},
			map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn",
				"text": "> " + quoted + "\n> line 2\n> line 3\n> line 4…"}},
			map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn", "text": "*Choices:* oauth · password"}},
			map[string]any{"type": "context", "elements": []any{map[string]any{"type": "mrkdwn",
				"text": "Answer with `bh respond tm-7 --repo /src/shop \"...\"`"}}},
			map[string]any{"type": "context", "elements": []any{map[string]any{"type": "mrkdwn",
				"text": "<http://127.0.0.1:7070/r/shop-1a2b3c/t/tm-7|open in bh>"}}},
		},
	}
	if got.path != "/services/T0/B0/SECRET" || !reflect.DeepEqual(got.body, want) {
		t.Errorf("slack got %s %v\nwant %v", got.path, got.body, want)
	}
}

func TestSlackShapeWithoutQuestion(t *testing.T) {
	got := postOne(t, config.FormatSlack, "/hook", Event{Name: task.EventTaskFailed, TaskID: "tm-8", Title: "Port it",
		Question: "an old question", Summary: "tests fail", Repo: "shop"})
	want := map[string]any{"text": "bh: tm-8 task failed in shop: Port it", "blocks": []any{
		map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn", "text": "*bh: tm-8 task failed in shop*\nPort it"}},
		map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn", "text": "tests fail"}},
	}}
	if !reflect.DeepEqual(got.body, want) {
		t.Errorf("slack got %v\nwant %v", got.body, want)
	}
}

// ntfy's JSON goes to the server's root and names the topic, the last
// segment of the configured URL; the query (an ?auth= token) stays.
func TestNtfyShape(t *testing.T) {
	got := postOne(t, config.FormatNtfy, "/ntfy/bh-alerts?auth=TOKEN", question)
	want := asJSON(t, map[string]any{
		"topic":    "bh-alerts",
		"title":    "bh: tm-7 input requested in shop",
		"message":  "Add login\n" + firstLines(question.Question) + "\nChoices: oauth · password\nAnswer: " + question.Respond,
		"tags":     []string{"question", "bh"},
		"priority": 4,
		"click":    question.URL,
		"actions":  []any{map[string]any{"action": "view", "label": "Open in bh", "url": question.URL}},
	})
	if got.path != "/ntfy/?auth=TOKEN" || !reflect.DeepEqual(got.body, want) {
		t.Errorf("ntfy got %s %v\nwant %v", got.path, got.body, want)
	}
	if !strings.HasSuffix(firstLines(question.Question), "line 4…") {
		t.Errorf("first lines %q", firstLines(question.Question))
	}
}

func TestNtfyShapeWithoutPage(t *testing.T) {
	got := postOne(t, config.FormatNtfy, "/bh", Event{Name: task.EventTaskCompleted, TaskID: "tm-8", Title: "Port it", Summary: "done"})
	want := asJSON(t, map[string]any{"topic": "bh", "title": "bh: tm-8 task completed", "message": "Port it\ndone",
		"tags": []string{"white_check_mark", "bh"}, "priority": 3})
	if got.path != "/" || !reflect.DeepEqual(got.body, want) {
		t.Errorf("ntfy got %s %v\nwant %v", got.path, got.body, want)
	}
}

func TestJSONShapeIsTheEvent(t *testing.T) {
	for _, format := range []string{"", config.FormatJSON} {
		got := postOne(t, format, "/hook", question)
		if want := asJSON(t, question); got.path != "/hook" || !reflect.DeepEqual(got.body, want) {
			t.Errorf("format %q got %s %v\nwant %v", format, got.path, got.body, want)
		}
	}
}

func TestNtfyNeedsATopic(t *testing.T) {
	_, err := New([]config.NotifyConfig{{Events: []string{"*"}, Webhook: "https://ntfy.sh/", Format: config.FormatNtfy}}, nil)
	if err == nil || !strings.Contains(err.Error(), "names its topic") {
		t.Errorf("got %v", err)
	}
	_, err = New([]config.NotifyConfig{{Events: []string{"*"}, Desktop: true, Format: config.FormatSlack}}, nil)
	if err == nil || !strings.Contains(err.Error(), "has no webhook") {
		t.Errorf("format without a webhook: %v", err)
	}
}
