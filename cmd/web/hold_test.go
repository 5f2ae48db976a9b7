package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
)

// A gate approved without its change opened is asked about once; the
// approval that lands is held for its undo window, with nothing recorded
// (so no worker can land it), and Undo leaves the question waiting; once
// the window (10 s, the default) ends it is recorded as any answer.
func TestGateAsksThenHolds(t *testing.T) {
	s := newSite(t)
	for _, f := range []url.Values{{"q": {"q1"}, "answer": {"SQLite"}}, {"q": {"q3"}, "text": {"no"}}} {
		if resp, body := s.answer(f, nil); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("%v: %d %s", f, resp.StatusCode, body)
		}
	}
	waiting := s.file()
	resp, body := s.answer(url.Values{"q": {"q2"}, "answer": {"yes"}}, nil)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "You have not opened this change") ||
		!strings.Contains(body, `<input type="hidden" name="answer" value="yes">`) {
		t.Fatalf("an unopened gate approved: %d\n%s", resp.StatusCode, body)
	}
	if s.file() != waiting {
		t.Fatal("asking first recorded something")
	}
	approve := func() {
		t.Helper()
		if resp, body := s.answer(url.Values{"q": {"q2"}, "answer": {"yes"}, "confirm": {"1"}}, nil); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirmed: %d %s", resp.StatusCode, body)
		}
		if s.file() != waiting {
			t.Fatal("the approval was recorded before its undo window ended")
		}
		if _, page := s.do("GET", s.base, nil, nil); !strings.Contains(page, "Nothing is recorded yet") || !strings.Contains(page, "/undo") {
			t.Fatalf("the held approval's page:\n%s", page)
		}
	}
	approve()
	s.mu.Lock()
	if d := s.timers[0].d; d != 10*time.Second {
		t.Errorf("the undo window is %v, want 10s", d)
	}
	s.mu.Unlock()
	resp, _ = s.do("POST", s.base+"/undo", url.Values{"csrf": {csrfValue(token)}}, nil)
	if _, page := s.do("GET", resp.Header.Get("Location"), nil, nil); !strings.Contains(page, "Undone: nothing was recorded") {
		t.Fatalf("after undo:\n%s", page)
	}
	s.elapse() // the window of the undone approval ends: nothing happens
	if tk := s.task(); s.file() != waiting || tk.State != task.AwaitingInput || tk.Questions[1].Status != task.QuestionPending {
		t.Fatalf("after undo: %s, q2 %s", tk.State, tk.Questions[1].Status)
	}
	approve()
	s.elapse()
	if tk := s.task(); tk.State != task.Open || tk.Questions[1].Status != task.QuestionAnswered {
		t.Fatalf("after the window: %s, q2 %s", tk.State, tk.Questions[1].Status)
	}
}

// An approval that is not a gate, and a gate's rejection, are recorded at
// once; comments on lines go with the rejection, each with its file and
// line, and the page shows them; a comment on a line the change does not
// show is refused, saying which it shows, and nothing is recorded.
func TestRejectWithLineComments(t *testing.T) {
	s := newSite(t)
	s.park()
	waiting := s.file()
	for lc, why := range map[string]string{
		`{"path":"schema.sql","line":999,"text":"x"}`: "line 999 is not in tm-ask1&#39;s change, which shows line 1 of schema.sql",
		`{"path":"nosuch.sql","line":1,"text":"x"}`:   "nosuch.sql is not a file of tm-ask1&#39;s change, whose files are schema.sql",
	} {
		resp, body := s.answer(url.Values{"q": {"q2"}, "answer": {"no"}, "lc": {lc}}, nil)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, why) {
			t.Errorf("%s: %d, want 400 saying %q:\n%s", lc, resp.StatusCode, why, body)
		}
		if s.file() != waiting {
			t.Fatalf("%s: something was recorded", lc)
		}
	}
	resp, body := s.answer(url.Values{"q": {"q1", "q2", "q3"}, "answer.q1": {"SQLite"}, "text.q3": {"no"},
		"answer.q2": {"no"}, "lc.q2": {`{"path":"schema.sql","line":1,"text":"name it b2"}`}}, nil)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	q := s.task().Questions[1]
	if q.Status != task.QuestionAnswered || len(q.Comments) != 1 || q.Comments[0] != (task.LineComment{Path: "schema.sql", Line: 1, Text: "name it b2"}) {
		t.Fatalf("q2: %+v", q)
	}
	// The page keeps them: beside the answer, and in the history.
	if _, page := s.do("GET", s.base, nil, nil); strings.Count(page, "schema.sql:1: name it b2") != 2 {
		t.Errorf("the comment is not beside the answer and in the history:\n%s", page)
	}
}

// A partial submit records what the human gave, never a default left as
// it was filled in; an answer overtaken by another keeps what was typed
// beside the other answer.
func TestNeverInventedNorLost(t *testing.T) {
	s := newSite(t)
	resp, body := s.answer(url.Values{"q": {"q1", "q3"}, "answer.q1": {"Postgres"}, "default.q1": {"Postgres"},
		"text.q3": {"Use migrations"}}, nil)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if tk := s.task(); tk.Questions[0].Status != task.QuestionPending || tk.Questions[2].Status != task.QuestionAnswered {
		t.Fatalf("the untouched default was recorded: %+v", tk.Questions)
	}
	resp, body = s.answer(url.Values{"q": {"q3"}, "text": {"Keep the old table too"}}, nil)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "Keep the old table too") ||
		!strings.Contains(body, "Answered <b>Use migrations</b>") || strings.Contains(body, "q3:") {
		t.Fatalf("overtaken: %d\n%s", resp.StatusCode, body)
	}
}

// While an approval is held, its inbox card offers its Undo rather than
// the buttons that answer.
func TestInboxCardHeld(t *testing.T) {
	s := newSite(t)
	for _, f := range []url.Values{{"q": {"q1"}, "answer": {"SQLite"}}, {"q": {"q3"}, "text": {"no"}}, {"q": {"q2"}, "answer": {"yes"}, "confirm": {"1"}}} {
		s.answer(f, nil)
	}
	_, body := s.do("GET", "/", nil, nil)
	if !strings.Contains(body, `action="`+s.base+`/undo" class="quick held-card"`) || strings.Contains(body, `data-key="a"`) {
		t.Errorf("the held task's card:\n%s", body)
	}
}

// A gate rejected with no reason and no comment on a line is asked about
// once, with nothing recorded; confirmed, it is recorded.
func TestBareRejectAsks(t *testing.T) {
	s := newSite(t)
	waiting := s.file()
	resp, body := s.answer(url.Values{"q": {"q2"}, "answer": {"no"}, "comment": {"  "}}, nil)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "You gave no reason and no comment on a line") ||
		!strings.Contains(body, `<input type="hidden" name="answer" value="no">`) || strings.Contains(body, "You have not opened this change") {
		t.Fatalf("a bare reject: %d\n%s", resp.StatusCode, body)
	}
	if s.file() != waiting {
		t.Fatal("asking recorded something")
	}
	if resp, body := s.answer(url.Values{"q": {"q2"}, "answer": {"no"}, "confirm": {"1"}}, nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirmed: %d %s", resp.StatusCode, body)
	}
	if q := s.task().Questions[1]; q.Status != task.QuestionAnswered || q.Answer[0] != "no" {
		t.Fatalf("the confirmed reject: %+v", q)
	}
}
