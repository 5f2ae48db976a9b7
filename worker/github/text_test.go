package github

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/notify"
)

// A gate's question on the issue shows its change and its review page.
func TestGateQuestionText(t *testing.T) {
	tk := &task.Task{ID: "tm-gate", Title: "Add greeting", Summary: "Done; please look."}
	qs := []task.Question{{ID: "g1", Question: "Land this change?", Type: task.ApprovalQuestion, Gate: true}}
	e := notify.Event{URL: "https://bh.example/r/x/t/tm-gate", Diffstat: &notify.Diffstat{Changed: 2, Added: 10, Removed: 3,
		Files: []git.FileStat{{Path: "hello.go", Added: 9, Removed: 3}, {Path: "hello_test.go", Added: 1}}}}
	got := questionText(tk, qs, e)
	for _, want := range []string{"<!-- bh -->", "tm-gate", "> Done; please look.", "**1. Land this change?**",
		"2 files changed, +10 −3", "- `hello.go` +9 −3", "Review: https://bh.example/r/x/t/tm-gate", "`/bh yes`"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
}

func TestParseReply(t *testing.T) {
	choice := task.Question{ID: "q1", Type: task.ChoiceQuestion, Options: []task.Option{{Label: "PostgreSQL"}, {Label: "SQLite"}}}
	approval := task.Question{ID: "q2", Type: task.ApprovalQuestion}
	words := task.Question{ID: "q3", Type: task.FreeformQuestion}
	for _, tt := range []struct {
		body string
		qs   []task.Question
		want []task.Answer // nil: no answer
	}{
		{"/bh 2", []task.Question{choice}, []task.Answer{{QuestionID: "q1", Values: []string{"SQLite"}}}},
		{"/bh SQLite", []task.Question{choice}, []task.Answer{{QuestionID: "q1", Values: []string{"SQLite"}}}},
		{"I like SQLite", []task.Question{choice}, nil},
		{"/bh yes", []task.Question{approval}, []task.Answer{{QuestionID: "q2", Values: []string{"yes"}}}},
		{"/bh no rename it first", []task.Question{approval}, []task.Answer{{QuestionID: "q2", Values: []string{"no"}, Comment: "rename it first"}}},
		{"Thanks!\n/bh 1\n/bh no later\n", []task.Question{choice, approval},
			[]task.Answer{{QuestionID: "q1", Values: []string{"PostgreSQL"}}, {QuestionID: "q2", Values: []string{"no"}, Comment: "later"}}},
		{"Use TOML,\n  with comments.", []task.Question{words}, []task.Answer{{QuestionID: "q3", Values: []string{"Use TOML,\n  with comments."}}}},
		{"/bhx 2", []task.Question{choice}, nil},
	} {
		got, ok := ParseReply(tt.body, tt.qs)
		if ok != (tt.want != nil) || !sameAnswers(got, tt.want) {
			t.Errorf("ParseReply(%q) = %+v, %v; want %+v", tt.body, got, ok, tt.want)
		}
	}
}

func sameAnswers(a, b []task.Answer) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].QuestionID != b[i].QuestionID || a[i].Comment != b[i].Comment || strings.Join(a[i].Values, "|") != strings.Join(b[i].Values, "|") {
			return false
		}
	}
	return true
}
