package worker

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/notify"
)

// channels receives what every kind of notifier is sent: a JSON webhook,
// Slack, ntfy and a command (its BH_DIFFSTAT, one file per question, and
// its BH_RESPOND beside it).
type channels struct {
	mu     sync.Mutex
	bodies map[string][][]byte // by path: /json, /slack, /ntfy/ (ntfy posts to its root)
	dir    string
}

func newChannels(t *testing.T, s *config.Config) *channels {
	c := &channels{bodies: map[string][][]byte{}, dir: t.TempDir()}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.bodies[r.URL.Path] = append(c.bodies[r.URL.Path], b)
		c.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	asks := []string{task.EventInputRequested}
	s.Notify = []config.NotifyConfig{{Events: asks, Webhook: srv.URL + "/json"},
		{Events: asks, Webhook: srv.URL + "/slack", Format: config.FormatSlack},
		{Events: asks, Webhook: srv.URL + "/ntfy/bh", Format: config.FormatNtfy},
		{Events: asks, Command: `printf '%s' "$BH_DIFFSTAT" > '` + c.dir + `'/"$BH_QUESTION_ID"; printf '%s' "$BH_RESPOND" > '` + c.dir + `'/"$BH_QUESTION_ID".respond`}}
	return c
}

// round is the n-th notification (from 0) of each channel.
func (c *channels) round(t *testing.T, n int, qid string) (js notify.Event, slack, ntfy map[string]any, command string) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for path, v := range map[string]any{"/json": &js, "/slack": &slack, "/ntfy/": &ntfy} {
		if len(c.bodies[path]) <= n {
			t.Fatalf("%s got %d notifications, want %d", path, len(c.bodies[path]), n+1)
		}
		if err := json.Unmarshal(c.bodies[path][n], v); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(c.dir, qid))
	if err != nil {
		t.Fatal(err)
	}
	return js, slack, ntfy, string(b)
}

// respond is the BH_RESPOND the command was given for question qid.
func (c *channels) respond(t *testing.T, qid string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.dir, qid+".respond"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// linksOn makes bh serve's config hold a link key, so that notifications
// carry answer links (and ntfy its one-tap buttons).
func linksOn(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if err := config.SaveWebConfig(config.WebConfig{URL: "https://laptop.example", Token: "t0ken", LinkKey: config.NewLinkKey()}); err != nil {
		t.Fatal(err)
	}
}

// evil is a file name an agent may choose: a line break, a Slack mention,
// markup and a backtick.
const evil = "a\n<!here> *bold* `y`.txt"

// A gate's notification carries the change through every channel, opens
// the page instead of approving, and asked again after a rejection says
// what changed since; an agent's own approval keeps its one tap.
func TestGateNotificationsCarryTheChange(t *testing.T) {
	linksOn(t)
	s := newStore(t)
	ch := newChannels(t, &s.Config)
	tk := gatedTask(t, s, "Write many files")
	files := map[string]string{evil: "boo\n"}
	for i := 1; i <= 11; i++ {
		files[fmt.Sprintf("f%02d.txt", i)] = "one\ntwo\n"
	}
	f := &fake{steps: []stepFn{step(files, done("Wrote twelve files.")),
		step(map[string]string{"f01.txt": "one\n"}, done("Shortened f01."))}}
	runWith(t, s, Options{Runner: f})
	q1 := pendingOf(t, getTask(t, s, tk.ID))
	js, slack, ntfy, cmd := ch.round(t, 0, q1.ID)

	if d := js.Diffstat; d == nil || d.Changed != 12 || d.Added != 23 || d.Removed != 0 || len(d.Files) != 12 ||
		d.Files[0].Path != evil || d.Files[1].Path != "f01.txt" || d.Since != nil || !js.Questions[0].Gate || js.Summary != "Wrote twelve files." {
		t.Fatalf("json: %+v", js)
	}
	msg := ntfy["message"].(string)
	shown := ` "a\n<!here> *bold* ` + "`y`" + `.txt" | 1 +1 -0`
	for _, want := range []string{"Summary: Wrote twelve files.", "Changes:\n" + shown + "\n f01.txt | 2 +2 -0\n", " and 2 more\n",
		" 12 files changed, 23 insertions(+), 0 deletions(-)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("ntfy's message lacks %q:\n%s", want, msg)
		}
	}
	acts, _ := json.Marshal(ntfy["actions"])
	if want := `[{"action":"view","label":"Review in bh","url":"` + ntfy["click"].(string) + `"}]`; string(acts) != want {
		t.Errorf("ntfy's actions %s, want %s", acts, want)
	}
	// No channel approves a gate in one go: Slack's one button opens the
	// page, and the command each suggests has the answer to fill in.
	var buttons []any
	for _, b := range slack["blocks"].([]any) {
		if b := b.(map[string]any); b["type"] == "actions" {
			buttons = append(buttons, b["elements"].([]any)...)
		}
	}
	if bs, _ := json.Marshal(buttons); len(buttons) != 1 || !strings.Contains(string(bs), `"text":"Review in bh"`) ||
		!strings.Contains(string(bs), `"url":"https://laptop.example/l/`) {
		t.Errorf("slack's buttons %s, want one opening the page", bs)
	}
	for where, respond := range map[string]string{"json": js.Respond, "json's question": js.Questions[0].Respond, "BH_RESPOND": ch.respond(t, q1.ID)} {
		if !strings.HasSuffix(respond, " <--yes|--no>") {
			t.Errorf("%s: %q, want the answer left to fill in (<--yes|--no>)", where, respond)
		}
	}
	blocks, _ := json.Marshal(slack["blocks"])
	if sl := string(blocks); !strings.Contains(sl, "```\\n") || !strings.Contains(sl, " f09.txt | 2 +2 -0") ||
		!strings.Contains(sl, `\"a\\n\u0026lt;!here\u0026gt; *bold* 'y'.txt\" | 1 +1 -0`) || strings.Contains(sl, "f10.txt") ||
		!strings.Contains(sl, `"text":"Review in bh"`) {
		t.Errorf("slack's blocks: %s", sl)
	}
	for _, want := range []string{shown + "\n", " f11.txt | 2 +2 -0\n", " 12 files changed"} {
		if !strings.Contains(cmd, want) {
			t.Errorf("BH_DIFFSTAT lacks %q:\n%s", want, cmd)
		}
	}

	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"no"}, Comment: "shorten f01"}}, "bob"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Runner: f})
	q2 := pendingOf(t, getTask(t, s, tk.ID))
	js2, slack2, ntfy2, cmd2 := ch.round(t, 1, q2.ID)
	if d := js2.Diffstat; q2.ID == q1.ID || d == nil || d.Since == nil || d.Since.Changed != 1 || d.Since.Files[0].Path != "f01.txt" ||
		d.Since.Removed != 1 || d.Added != 22 {
		t.Fatalf("json, asked again: %+v", js2.Diffstat)
	}
	msg2 := ntfy2["message"].(string)
	if want := "Changed since the last round:\n f01.txt | 1 +0 -1\n 1 file changed, 0 insertions(+), 1 deletion(-)"; !strings.Contains(msg2, want) || msg2 == msg {
		t.Errorf("ntfy, asked again, lacks %q:\n%s", want, msg2)
	}
	if !strings.Contains(cmd2, "Changed since the last round:\n f01.txt | 1 +0 -1") {
		t.Errorf("BH_DIFFSTAT, asked again:\n%s", cmd2)
	}
	if blocks, _ := json.Marshal(slack2["blocks"]); !strings.Contains(string(blocks), `Changed since the last round:\n f01.txt | 1 +0 -1`) {
		t.Errorf("slack, asked again: %s", blocks)
	}

	// An approval the agent asks is no gate: one tap answers it.
	asks := addTask(t, s, "Asks to deploy")
	ask := agent.Result{Status: agent.StatusNeedsInput, Summary: "ready", Question: "Deploy now?",
		Questions: []agent.Question{{Question: "Deploy now?", Type: agent.QuestionApproval}}}
	runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(nil, ask)}}})
	js3, _, ntfy3, cmd3 := ch.round(t, 2, pendingOf(t, getTask(t, s, asks.ID)).ID)
	acts, _ = json.Marshal(ntfy3["actions"])
	if js3.Diffstat != nil || cmd3 != "" || !strings.Contains(string(acts), `"label":"Approve"`) {
		t.Errorf("an agent's approval: diffstat %+v, BH_DIFFSTAT %q, actions %s", js3.Diffstat, cmd3, acts)
	}
}
