package web

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// Answers that do not fit their question are refused with bh respond's
// reasons, and change nothing.
func TestAnswerValidation(t *testing.T) {
	s := newSite(t)
	before := s.file()
	for _, tc := range []struct {
		name string
		form url.Values
		want string
	}{
		{"not an option", url.Values{"q": {"q1"}, "answer": {"MySQL"}}, `&#34;MySQL&#34; is not an option: pick one of: Postgres, SQLite`},
		{"two of a single choice", url.Values{"q": {"q1"}, "answer": {"Postgres", "SQLite"}}, "pick one option, not 2"},
		{"other without words", url.Values{"q": {"q1"}, "answer": {"other"}}, "needs your own words"},
		{"other with a comment only", url.Values{"q": {"q1"}, "answer": {"other"}, "comment": {"MariaDB"}}, "needs your own words"},
		{"words for other, an option picked", url.Values{"q": {"q1"}, "answer": {"SQLite"}, "other": {"MariaDB"}},
			"Question 1: you wrote words for Other but did not pick Other"},
		{"nothing picked", url.Values{"q": {"q1"}}, "pick one of"},
		{"approval neither", url.Values{"q": {"q2"}, "answer": {"maybe"}}, "is not an approval: answer yes or no"},
		{"empty words", url.Values{"q": {"q3"}, "text": {"  "}}, "Question 3: empty answer"},
		{"no such question", url.Values{"q": {"q9"}, "answer": {"yes"}}, "No such pending question (it waits on questions 1, 2 and 3)"},
	} {
		resp, body := s.answer(tc.form, nil)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d, want %q in\n%s", tc.name, resp.StatusCode, tc.want, body)
		}
		if !strings.Contains(body, `<form method="post"`) {
			t.Errorf("%s: the page lost its forms", tc.name)
		}
		if s.file() != before {
			t.Fatalf("%s: the task file changed", tc.name)
		}
	}
}

// Each kind of question answered from the page is recorded as bh respond
// records it, by web:<user>; the last answer opens the task again.
func TestAnswerKinds(t *testing.T) {
	s := newSite(t)
	for _, f := range []url.Values{
		{"q": {"q1"}, "answer": {"other"}, "other": {"MariaDB, as the team knows it"}},
		{"q": {"q2"}, "answer": {"no"}, "comment": {"add a migration test"}},
		{"q": {"q3"}, "text": {"  Keep it small.  "}},
	} {
		if resp, body := s.answer(f, nil); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("%v: %d %s", f, resp.StatusCode, body)
		}
	}
	tk := s.task()
	want := [][]string{{"other", "MariaDB, as the team knows it"}, {"no", "add a migration test"}, {"Keep it small.", ""}}
	for i, q := range tk.Questions {
		got := []string{strings.Join(q.Answer, ","), q.Comment}
		if q.Status != task.QuestionAnswered || !slices.Equal(got, want[i]) || !q.AnsweredAt.Equal(now) {
			t.Errorf("%s: %s %v at %v, want %v", q.ID, q.Status, got, q.AnsweredAt, want[i])
		}
	}
	var by []string
	for _, e := range tk.History {
		by = append(by, e.Kind+" "+e.By+" "+e.QuestionID+" "+e.Text)
	}
	wantBy := []string{
		"input.received web:alice q1 other: MariaDB, as the team knows it",
		"input.received web:alice q2 no: add a migration test",
		"input.received web:alice q3 Keep it small.",
		"state web:alice  answered",
	}
	if !slices.Equal(by, wantBy) {
		t.Errorf("history:\n%s\nwant:\n%s", strings.Join(by, "\n"), strings.Join(wantBy, "\n"))
	}
	if tk.State != task.Open {
		t.Errorf("state %s", tk.State)
	}
}

// The form's fields map onto one answer: an option with a comment stays
// that option, Other's words are its comment, text comes as typed (the
// browser's CRLF line breaks are the human's LF).
func TestFormAnswer(t *testing.T) {
	for _, tc := range []struct {
		name string
		form url.Values
		want task.Answer
	}{
		{"option and comment", url.Values{"q": {"q1"}, "answer": {"SQLite"}, "comment": {"one file is enough for now"}},
			task.Answer{QuestionID: "q1", Values: []string{"SQLite"}, Comment: "one file is enough for now"}},
		{"other's words", url.Values{"q": {"q1"}, "answer": {"other"}, "other": {"GitLab, as  we do"}, "comment": {""}},
			task.Answer{QuestionID: "q1", Values: []string{"other"}, Comment: "GitLab, as  we do"}},
		{"other's words and a comment", url.Values{"q": {"q1"}, "answer": {"other"}, "other": {" GitLab "}, "comment": {"we pay for it\r\nalready"}},
			task.Answer{QuestionID: "q1", Values: []string{"other"}, Comment: "GitLab\nwe pay for it\nalready"}},
		{"several options", url.Values{"q": {"q4"}, "answer": {"Linux", "Windows"}},
			task.Answer{QuestionID: "q4", Values: []string{"Linux", "Windows"}}},
		{"no with feedback", url.Values{"q": {"q2"}, "answer": {"no"}, "comment": {"keep the table:\r\nreports read it"}},
			task.Answer{QuestionID: "q2", Values: []string{"no"}, Comment: "keep the table:\nreports read it"}},
		{"a plan approved as edited in place", url.Values{"q": {"q5"}, "answer": {"yes"}, "plan": {"1. read\r\n2. write less"}, "comment": {""}},
			task.Answer{QuestionID: "q5", Values: []string{"yes"}, Comment: "1. read\n2. write less"}},
		{"a plan sent back", url.Values{"q": {"q5"}, "answer": {"no"}, "plan": {"1. read"}, "comment": {"smaller steps"}},
			task.Answer{QuestionID: "q5", Values: []string{"no"}, Comment: "smaller steps"}},
		{"words", url.Values{"q": {"q3"}, "text": {"Call it  Kestrel\r\n\r\nafter the bird"}},
			task.Answer{QuestionID: "q3", Values: []string{"Call it  Kestrel\n\nafter the bird"}}},
	} {
		got, err := formAnswer("tm-ask1", tc.form)
		if err != nil || got.QuestionID != tc.want.QuestionID || !slices.Equal(got.Values, tc.want.Values) || got.Comment != tc.want.Comment {
			t.Errorf("%s: %+v %v, want %+v", tc.name, got, err, tc.want)
		}
	}
}

// A refused answer comes back with what was typed still in its form.
func TestRefusedAnswerIsKept(t *testing.T) {
	s := newSite(t)
	resp, body := s.answer(url.Values{"q": {"q1"}, "answer": {"SQLite"}, "other": {"MariaDB & co"}, "comment": {"one <file>"}}, nil)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("%d\n%s", resp.StatusCode, body)
	}
	for _, want := range []string{`class="answer" data-kept`, `value="SQLite" checked`, `name="other.q1" value="MariaDB &amp; co"`,
		`name="comment.q1" rows="2">one &lt;file&gt;</textarea>`} {
		if !strings.Contains(body, want) {
			t.Errorf("no %s in\n%s", want, body)
		}
	}
	if strings.Count(body, "data-kept") != 1 || strings.Contains(body, `value="Postgres" checked`) || strings.Contains(body, `value="other" data-other checked`) {
		t.Errorf("the kept answer spilled over:\n%s", body)
	}
}

// Two people answering the same question: the second is told who answered
// first, and when, and the first answer stands.
func TestAnswerTwice(t *testing.T) {
	s := newSite(t)
	if resp, _ := s.answer(url.Values{"q": {"q1"}, "answer": {"SQLite"}}, nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("first answer: %d", resp.StatusCode)
	}
	after := s.file()
	resp, body := s.answer(url.Values{"q": {"q1"}, "answer": {"Postgres"}}, nil)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "Question 1: already answered by you (web) at 2026-01-01 12:00:00 UTC") {
		t.Fatalf("second answer: %d\n%s", resp.StatusCode, body)
	}
	if s.file() != after {
		t.Fatal("the second answer changed the task file")
	}
	// the same once the task is open again
	for _, f := range []url.Values{{"q": {"q2"}, "answer": {"yes"}, "reviewed": {"1"}}, {"q": {"q3"}, "text": {"no"}}} {
		s.answer(f, nil)
	}
	s.elapse()
	if resp, body := s.answer(url.Values{"q": {"q2"}, "answer": {"no"}}, nil); resp.StatusCode != http.StatusConflict ||
		!strings.Contains(body, "Question 2: already answered by you (web)") {
		t.Fatalf("answer to an open task: %d\n%s", resp.StatusCode, body)
	}
}
