package web

import (
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/attempts"
)

// A task tried side by side shows each attempt's diff on its page, for
// the pick: from its branch, or from the ref it is kept under.
func TestTaskPageShowsEveryAttempt(t *testing.T) {
	s := newSite(t)
	git := func(args ...string) string {
		c := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		c.Dir = s.root
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("commit", "-q", "--allow-empty", "-m", "base")
	for i, ref := range []string{"refs/heads/bh/tm-att1", "refs/bh/attempts/tm-try1/2"} {
		name := []string{"one.txt", "two.txt"}[i]
		os.WriteFile(filepath.Join(s.root, name), []byte("attempt "+name+"\n"), 0o644)
		git("add", name)
		git("update-ref", ref, git("commit-tree", git("write-tree"), "-p", "HEAD", "-m", name))
		git("rm", "-q", "--cached", name)
	}
	files := map[string]string{
		"tm-try1": "id: tm-try1\ntitle: Write a file\ntype: code\npriority: P2\nstate: awaiting_input\nattempts: 2\ndependsOn: [tm-att1, tm-att2]\n",
		"tm-att1": "id: tm-att1\ntitle: 'attempt 1/2: Write a file'\ntype: code\npriority: P2\nstate: closed\nparent: tm-try1\nattempt: 1\nsummary: wrote one\n",
		"tm-att2": "id: tm-att2\ntitle: 'attempt 2/2: Write a file'\ntype: code\npriority: P2\nstate: closed\nparent: tm-try1\nattempt: 2\n",
	}
	for id, body := range files {
		body += "createdAt: 2026-01-01T10:00:00Z\nupdatedAt: 2026-01-01T10:00:00Z\n"
		if err := os.WriteFile(s.st.Path(id), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	resp, body := s.do("GET", strings.Replace(s.base, "tm-ask1", "tm-try1", 1), nil, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	for _, want := range []string{
		`<h2>Attempts side by side</h2>`,
		`<summary>Attempt 1 <code>tm-att1</code>: wrote one</summary>`,
		`<span class="add">&#43;attempt one.txt</span>`,
		`<summary>Attempt 2 <code>tm-att2</code></summary>`,
		`<span class="add">&#43;attempt two.txt</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// tried is a task tried by two attempts, waiting on its pick.
const tried = `id: tm-try2
title: Write a file
type: code
priority: P2
state: awaiting_input
attempts: 2
dependsOn: [tm-att3, tm-att4]
questions:
  - id: qp
    header: Attempts
    question: "2 attempts finished: which one lands?"
    type: choice
    options:
      - label: "1"
        description: "attempt 1: 1 files +1 -0"
      - label: "2"
        description: "attempt 2: 1 files +1 -0"
      - label: none
        description: "none of these: your comment goes to every attempt"
    status: pending
    askedAt: 2026-01-01T10:00:00Z
createdAt: 2026-01-01T10:00:00Z
updatedAt: 2026-01-01T10:00:00Z
`

// The pick answered on the page goes through the one answer door
// (worker/act) as bh respond --pick does: an attempt that is not one is
// refused with its reason and changes nothing; a pick is recorded as the
// human's, opens the task for the worker, and is the pick it acts on;
// "none" carries its comment to every attempt.
func TestAnswerPickOnThePage(t *testing.T) {
	for _, tc := range []struct {
		form     url.Values
		k        int
		feedback string
	}{
		{url.Values{"q": {"qp"}, "answer": {"2"}, "csrf": {csrfValue(token)}}, 2, ""},
		{url.Values{"q": {"qp"}, "answer": {attempts.None}, "comment": {"use a longer name"}, "csrf": {csrfValue(token)}}, 0,
			"use a longer name"},
	} {
		s := newSite(t)
		if err := os.WriteFile(s.st.Path("tm-try2"), []byte(tried), 0o644); err != nil {
			t.Fatal(err)
		}
		page := strings.Replace(s.base, "tm-ask1", "tm-try2", 1)
		if _, body := s.do("GET", page, nil, nil); !strings.Contains(body, `value="none"`) || !strings.Contains(body, `value="2"`) {
			t.Fatalf("the page offers no pick:\n%s", body)
		}
		before, _ := os.ReadFile(s.st.Path("tm-try2"))
		if resp, body := s.do("POST", page+"/answer", url.Values{"q": {"qp"}, "answer": {"3"},
			"csrf": {csrfValue(token)}}, nil); resp.StatusCode != http.StatusBadRequest ||
			!strings.Contains(body, "is not an option") {
			t.Fatalf("pick 3 of 2: %d\n%s", resp.StatusCode, body)
		}
		if after, _ := os.ReadFile(s.st.Path("tm-try2")); string(after) != string(before) {
			t.Fatal("a refused pick changed the task")
		}
		if resp, body := s.do("POST", page+"/answer", tc.form, nil); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("%v: %d %s", tc.form, resp.StatusCode, body)
		}
		tk, err := s.st.Get("tm-try2")
		if err != nil {
			t.Fatal(err)
		}
		k, feedback, q := attempts.Picked(tk)
		last := tk.History[len(tk.History)-1]
		if q == nil || k != tc.k || feedback != tc.feedback || tk.State != task.Open || last.By != "web:alice" ||
			!slices.ContainsFunc(tk.History, func(e task.Event) bool { return e.Kind == task.EventInputReceived && e.QuestionID == "qp" }) {
			t.Errorf("%v: picked %d %q (%v), %s, last by %q: want %d %q, open, by web:alice", tc.form, k, feedback, q, tk.State,
				last.By, tc.k, tc.feedback)
		}
	}
}
