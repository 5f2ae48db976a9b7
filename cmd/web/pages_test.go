package web

import (
	"html"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// park parks a change to schema.sql for tm-ask1, as the worker does.
func (s *site) park() { s.parkFiles(map[string]string{"schema.sql": "create table b;\n"}) }

// parkFiles parks a change for tm-ask1 over a base where schema.sql holds
// "create table a;": each file of files written with its text.
func (s *site) parkFiles(files map[string]string) {
	git := func(args ...string) string {
		c := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		c.Dir = s.root
		out, err := c.CombinedOutput()
		if err != nil {
			s.t.Fatalf("git %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	os.WriteFile(filepath.Join(s.root, "schema.sql"), []byte("create table a;\n"), 0o644)
	git("add", "schema.sql")
	git("commit", "-q", "-m", "base")
	for name, text := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(s.root, name)), 0o755)
		os.WriteFile(filepath.Join(s.root, name), []byte(text), 0o644)
		git("add", name)
	}
	parked := git("commit-tree", git("write-tree"), "-p", "HEAD", "-m", "parked")
	git("update-ref", "refs/bh/parked/tm-ask1", parked)
}

// The task page: every question in one form, each with its context and
// the fields of its kind, the templates, and the parked work per file,
// coloured line by line, above the decision.
func TestTaskPage(t *testing.T) {
	s := newSite(t)
	s.park()
	os.MkdirAll(filepath.Join(s.st.Dir, "templates"), 0o755)
	os.WriteFile(filepath.Join(s.st.Dir, "templates", "lgtm.md"), []byte("Looks good.\n"), 0o644)

	resp, body := s.do("GET", s.base, nil, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	for _, want := range []string{
		`<input type="radio" name="answer.q1" value="Postgres"><b>Postgres</b><span>what production runs</span>`,
		`value="other" data-other>`,
		`<pre class="context" tabindex="0">Added the schema.` + "\n\n" + ` schema.sql | 12 &#43;`,
		`<legend><span class="step">2 of 3</span></legend>`,
		`<p class="progress" role="status">0 of 3 answered</p>`,
		`<input type="radio" name="answer.q2" value="yes"><b>Approve</b>`,
		`<label class="field">Your answer<textarea name="text.q3"`,
		`<button class="send">Send 3 answers</button>`,
		`<option value="Looks good.">lgtm</option>`,
		`<input type="hidden" name="csrf" value="` + csrfValue(token) + `">`,
		`<pre class="diff chroma" tabindex="0"><span class="hunk">@@ -1 +1 @@</span>`,
		`<span class="del"><span class="lno">1</span><span class="lno"></span><span class="sign">−</span><span class="k">create</span> <span class="k">table</span> <span class="n">a</span><span class="p">;</span></span>`,
		`<span class="add" data-line="1" tabindex="-1"><span class="lno"></span><span class="lno">1</span><span class="sign">&#43;</span><span class="k">create</span>`,
		`<summary><code>schema.sql</code> <span class="plus">+1<span class="vh"> added</span></span> <span class="minus">−1<span class="vh"> deleted</span></span></summary>`,
		`<label class="viewed"><input type="checkbox" data-viewed> Viewed<span class="vh"> schema.sql</span></label>`,
		`<section class="parked" id="changes" data-review="q2">`,
		`<input type="hidden" name="reviewed" value="1">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Index(body, `class="parked"`) > strings.Index(body, `name="answer.q2"`) {
		t.Error("the diff is below the decision")
	}
	// Each question shows the command that answers it from a terminal.
	tk, err := s.st.Get("tm-ask1")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range tk.OpenQuestions() {
		cmd := task.RespondCommand(tk, q, s.root)
		if !strings.Contains(cmd, "--question") || !strings.Contains(body, "<code>"+html.EscapeString(cmd)+"</code>") {
			t.Errorf("the page lacks %q", cmd)
		}
	}
	// ?part=main is the page's live part alone
	if _, part := s.do("GET", s.base+"?part=main", nil, nil); strings.Contains(part, "<html") || !strings.Contains(part, "Which database?") {
		t.Errorf("part=main:\n%s", part)
	}
	if resp, _ := s.do("GET", "/r/"+config.RepoKey(s.root)+"/t/tm-none", nil, nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a missing task: %d", resp.StatusCode)
	}
	if resp, _ := s.do("GET", "/r/elsewhere-000000/t/tm-ask1", nil, nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unregistered repository: %d", resp.StatusCode)
	}
}

// An answer another clone gave after the one used is in the history, said
// to be not used, with whose answer was.
func TestTaskPageUnusedAnswer(t *testing.T) {
	s := newSite(t)
	at := time.Date(2026, 1, 1, 12, 5, 0, 0, time.UTC)
	if _, err := s.st.Update("tm-ask1", func(tk *task.Task) error {
		tk.History = append(tk.History, task.Event{At: at, Kind: task.EventInputUnused, By: "bob", QuestionID: "q3",
			Text: "port 9090", Context: "given in another clone after the answer ann gave at 2026-01-01T12:00:00Z, which was used instead"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	_, body := s.do("GET", s.base, nil, nil)
	want := `<td class="ev">answer not used</td><td>bob</td><td>question 3</td><td class="text">port 9090<br><small>not used: given in another clone after the answer ann gave at 2026-01-01T12:00:00Z, which was used instead</small></td>`
	if !strings.Contains(body, want) {
		t.Errorf("the page lacks %q", want)
	}
}
