package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bh-tracker/bh/cmd/board"
	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/cmd/web"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/bh-tracker/bh/worker/notify"
)

// FuzzAgentTextShownAsData: whatever an agent writes as its question,
// options, summary and run text, no control character but newline and
// tab reaches a human through any channel: each entry of textChannels
// runs that channel's real rendering code over a task holding the text.
// go test runs the seeds; go test -fuzz FuzzAgentTextShownAsData ./cmd
// looks for more.
func FuzzAgentTextShownAsData(f *testing.F) {
	for _, s := range []string{
		"plain words",
		"\x1b]0;pwned\x07title \x1b]52;c;ZXZpbA==\x1b\\",
		"\x1b[2J\x1b[H\x1b[1;31mApprove?\x1b[0m\r\x08\x7f",
		"\x1b[8mhidden\x1b[28m \x1b[30;40mblack on black\x1b[0m \x1b[38;5;16mx",
		"\u009b2J\u009d0;t\u009c \u0085 \u0090x\u009c",
		"\xff\xfe\xc3 invalid \xe2\x80",
		"safe \u202eexe.txt\u202c \u2066x\u2069",
		"line\nbreaks\tand tabs\r\n\x00nul",
	} {
		f.Add(s)
	}
	c := newTextChannels(f)
	f.Fuzz(func(t *testing.T, text string) {
		c.write(t, text)
		for _, ch := range textChannels {
			for _, out := range ch.render(t, c) {
				if bad := shownUnsafe(out); bad != "" {
					t.Errorf("%s shows %s of %q:\n%q", ch.name, bad, text, out)
				}
			}
		}
	})
}

// textChannels are every way agent text reaches a human, each returning
// what the human is shown (decoded: a JSON string as its receiver reads
// it, a page as its text).
var textChannels = []struct {
	name   string
	render func(t *testing.T, c *textChans) []string
}{
	{"bh show", func(t *testing.T, c *textChans) []string {
		return c.term(t, func(b base) error { return showRun(&ShowOptions{base: b, ID: c.id}) })
	}},
	{"bh status", func(t *testing.T, c *textChans) []string {
		return c.term(t, func(b base) error { return statusRun(&StatusOptions{base: b, ID: c.id}) })
	}},
	{"bh list", func(t *testing.T, c *textChans) []string {
		return c.term(t, func(b base) error { return listRun(&ListOptions{base: b, All: true}) })
	}},
	{"bh log", func(t *testing.T, c *textChans) []string {
		return c.term(t, func(b base) error { return logRun(&LogOptions{base: b, Ctx: context.Background()}) })
	}},
	{"bh board", func(t *testing.T, c *textChans) []string {
		io := &IOStreams{Out: new(bytes.Buffer), ErrOut: new(bytes.Buffer)}
		io.SetColor(true)
		return []string{withoutColours(board.Frame(board.Options{IO: io, Store: c.s, Now: c.s.Now}, 100, 30))}
	}},
	{"commit message", func(t *testing.T, c *textChans) []string {
		tk := c.task(t)
		return []string{landing.CommitMessage(tk.ID, tk.Title, tk.Summary)}
	}},
	{"notifications", func(t *testing.T, c *textChans) []string { return c.notified(t) }},
	{"web pages", func(t *testing.T, c *textChans) []string {
		return []string{c.page(t, "/"), c.page(t, "/r/"+config.RepoKey(c.s.Root)+"/t/"+c.id)}
	}},
}

// textChans holds what the channels need: a store whose task c.id waits
// on a question, a web server over it, and receivers of notifications.
type textChans struct {
	s   *store.Store
	id  string
	web http.Handler
	hub *httptest.Server
	dir string // where the notify command writes its environment

	mu     sync.Mutex
	bodies map[string][]byte // the last body each webhook path got
}

func newTextChannels(f *testing.F) *textChans {
	c := &textChans{s: newTestStore(f), dir: f.TempDir(), bodies: map[string][]byte{}}
	tk, err := c.s.Create(&task.Task{Title: "fuzzed"})
	if err != nil {
		f.Fatal(err)
	}
	c.id = tk.ID
	srv, err := web.New(web.Options{Token: "t", By: "web:alice", Now: c.s.Now,
		Repos: func() ([]string, error) { return []string{c.s.Root}, nil }})
	if err != nil {
		f.Fatal(err)
	}
	c.web = srv.Handler()
	c.hub = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.bodies[r.URL.Path] = b
		c.mu.Unlock()
	}))
	f.Cleanup(c.hub.Close)
	return c
}

// write makes the task hold text wherever an agent's words go: its
// title (one line), summary, question and options, and its history.
func (c *textChans) write(t *testing.T, text string) {
	at := c.s.Now()
	_, err := c.s.Update(c.id, func(tk *task.Task) error {
		tk.Title = "fuzzed " + strings.Join(strings.Fields(text), " ")
		tk.State, tk.Summary, tk.Details, tk.Question = task.AwaitingInput, text, text, text
		tk.Questions = []task.Question{{ID: "q1", Question: text, Header: text, Type: task.ChoiceQuestion,
			Context: text, Status: task.QuestionPending, AskedAt: at,
			Options: []task.Option{{Label: "yes " + text, Description: text}, {Label: "no"}}}}
		tk.History = append(tk.History[:1], task.Event{At: at, Kind: task.EventRunFinished, Text: text})
		return nil
	})
	if err != nil {
		t.Skipf("the store refuses the text: %v", err)
	}
}

func (c *textChans) task(t *testing.T) *task.Task {
	tk, err := c.s.Get(c.id)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// term runs a command as bh does on a terminal, colour on, through the
// filter of its streams; bh's own colours are taken out of what it shows.
func (c *textChans) term(t *testing.T, run func(base) error) []string {
	out, errOut := new(bytes.Buffer), new(bytes.Buffer)
	io := &IOStreams{Out: ui.Safe(out), ErrOut: ui.Safe(errOut), IsTTY: true, Cols: 100}
	io.SetColor(true)
	if err := run(base{IO: io, Store: func() (*store.Store, error) { return c.s, nil }, Now: c.s.Now}); err != nil {
		t.Fatal(err)
	}
	return []string{withoutColours(out.String()), withoutColours(errOut.String())}
}

// notified sends input.requested for the task to ntfy, Slack, a JSON
// webhook and a command, and returns every string each carries.
func (c *textChans) notified(t *testing.T) []string {
	asks := []string{task.EventInputRequested}
	env := filepath.Join(c.dir, "env")
	n, err := notify.New([]config.NotifyConfig{
		{Events: asks, Webhook: c.hub.URL + "/json"},
		{Events: asks, Webhook: c.hub.URL + "/slack", Format: config.FormatSlack},
		{Events: asks, Webhook: c.hub.URL + "/ntfy/bh", Format: config.FormatNtfy},
		{Events: asks, Command: `env -0 | grep -z '^BH_' > '` + env + `'`},
	}, func(format string, args ...any) { t.Errorf("notify: "+format, args...) })
	if err != nil {
		t.Fatal(err)
	}
	n.Send(notify.FromTask(task.EventInputRequested, c.task(t), c.s.Root, config.WebConfig{}, c.s.Now()))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := n.Close(ctx); err != nil {
		t.Fatal(err)
	}
	var out []string
	c.mu.Lock()
	for _, path := range []string{"/json", "/slack", "/ntfy/"} {
		var v any
		if err := json.Unmarshal(c.bodies[path], &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, jsonStrings(path, v)...)
	}
	c.mu.Unlock()
	b, err := os.ReadFile(env)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range strings.Split(string(b), "\x00") {
		if k, v, _ := strings.Cut(kv, "="); k != "BH_EVENT_JSON" {
			out = append(out, v) // BH_QUESTION, BH_SUMMARY…; BH_EVENT_JSON is the webhook's JSON
		}
	}
	return out
}

// jsonStrings are the strings in v, each prefixed with where it was.
func jsonStrings(where string, v any) []string {
	switch v := v.(type) {
	case string:
		return []string{where + ": " + v}
	case []any:
		var out []string
		for i, e := range v {
			out = append(out, jsonStrings(fmt.Sprintf("%s[%d]", where, i), e)...)
		}
		return out
	case map[string]any:
		var out []string
		for k, e := range v {
			out = append(out, jsonStrings(where+"."+k, e)...)
		}
		return out
	}
	return nil
}

// page is a page of bh serve, as a browser holding its token gets it.
func (c *textChans) page(t *testing.T, path string) string {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.Header.Set("Authorization", "Bearer t")
	w := httptest.NewRecorder()
	c.web.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		t.Fatalf("%s: %d\n%s", path, w.Code, w.Body)
	}
	return w.Body.String()
}

// sgr are the colours bh paints with (bold, faint, five colours and their
// resets), which pass the filter on purpose; any other SGR is the agent's.
var sgr = regexp.MustCompile(`\x1b\[(?:(?:0|1|2|22|31|32|33|35|36|39)(?:;(?:0|1|2|22|31|32|33|35|36|39))*)?m`)

// withoutColours is terminal output without bh's colours.
func withoutColours(s string) string { return sgr.ReplaceAllString(s, "") }

// shownUnsafe names the first character of s that no human should be
// shown, or is "": checked rune by rune, apart from task.SafeText's code.
func shownUnsafe(s string) string {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\ufffd"):
			return "an invalid byte"
		case r < 0x20 && r != '\n' && r != '\t', r >= 0x7f && r <= 0x9f, r >= 0x202a && r <= 0x202e,
			r >= 0x2066 && r <= 0x2069:
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}
