package cmd

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// One tap from a phone: the worker's ntfy notification carries an Approve
// button; the request ntfy sends when it is tapped (the method, headers
// and body of the action, to its URL, with no cookie and no Origin)
// answers through bh serve, recorded as given by ntfy, and the resumed
// agent reads the answer. The same tap again is refused.
func TestServeNtfyOneTap(t *testing.T) {
	root := t.TempDir()
	bin := binE2E(t, root)
	agentDir := filepath.Join(root, "agent")
	os.MkdirAll(agentDir, 0o755)
	for k, v := range map[string]string{"PATH": bin + ":" + os.Getenv("PATH"), "FAKEAGENT_DIR": agentDir,
		"XDG_STATE_HOME": filepath.Join(root, "state"), "XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"GIT_CONFIG_NOSYSTEM": "1", "HOME": root, "BH_SANDBOX": "off"} { // the fake agent's dir is in root
		t.Setenv(k, v)
	}
	published := make(chan []byte, 8)
	ntfy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		published <- b
	}))
	defer ntfy.Close()
	dir := filepath.Join(root, "shop")
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: [fakeagent]\nnotify:\n"+
		"  - events: [input.requested]\n    webhook: "+ntfy.URL+"/bh-phone\n    format: ntfy\n")
	writeE2E(t, agentDir, "drop.plan", "match Drop the legacy table\non first\n"+
		`print {"status":"needs_input","summary":"asks","questions":[{"question":"May I drop the legacy table?","type":"approval"}]}`+
		"\non resume\nprint {\"status\":\"completed\",\"summary\":\"dropped\"}\n")
	id := strings.TrimSpace(bhE2E(t, dir, "add", "Drop the legacy table"))

	conf := serveInProcess(t, dir, &ServeOptions{Listen: "127.0.0.1:0"})
	if len(conf.LinkKey) != 64 {
		t.Fatalf("bh serve made no link key: %+v", conf)
	}

	bhE2E(t, dir, "worker", "--once")
	var msg struct {
		Click   string
		Actions []struct {
			Action, Label, URL, Method, Body string
			Headers                          map[string]string
			Clear                            bool
		}
	}
	select {
	case b := <-published:
		if err := json.Unmarshal(b, &msg); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
	default:
		t.Fatal("the worker published nothing to ntfy")
	}
	if len(msg.Actions) != 3 || msg.Actions[0].Label != "Approve" || msg.Actions[1].Label != "Reject" ||
		msg.Actions[2].Action != "view" || !strings.HasPrefix(msg.Click, conf.URL+"/l/") {
		t.Fatalf("the notification's actions: %+v", msg)
	}
	tap := func() (int, string) {
		a := msg.Actions[0]
		req, err := http.NewRequest(a.Method, a.URL, strings.NewReader(a.Body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range a.Headers {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := tap(); code != http.StatusOK || !strings.Contains(body, "answered yes") {
		t.Fatalf("the tap: %d %s", code, body)
	}
	tk := bhTask(t, dir, id)
	if e, ok := tk.LastAnswer(tk.Questions[0].ID); !ok || e.By != "ntfy" || e.Text != "yes" {
		t.Errorf("the answer recorded: %+v", e)
	}
	if code, body := tap(); code != http.StatusGone || !strings.Contains(body, "answered already") {
		t.Errorf("the same tap again: %d %s", code, body)
	}
	bhE2E(t, dir, "worker", "--once")
	prompt := readE2E(t, agentDir, id+".2.prompt")
	if !strings.Contains(prompt, "May I drop the legacy table?\nAnswer: yes\n") {
		t.Errorf("the resumed agent read:\n%s", prompt)
	}
}
