package taskprompt

import (
	"testing"

	"github.com/bh-tracker/bh/task"
)

// The questions of runs before the latest are earlier rounds; this
// round's are those its latest run asked.
func TestRoundsMarkEarlier(t *testing.T) {
	tk := &task.Task{Questions: []task.Question{
		{ID: "q1", Question: "Approve?", Gate: true, Status: task.QuestionAnswered, Answer: []string{"no"},
			Comments: []task.LineComment{{Path: "a.go", Line: 9, Text: "old"}}},
		{ID: "q2", Question: "Approve?", Gate: true, Status: task.QuestionAnswered, Answer: []string{"no"}},
		{ID: "q3", Question: "Which?", Status: task.QuestionAnswered, Answer: []string{"B"}}}}
	tk.History = []task.Event{{Kind: task.EventRunStarted}, {Kind: task.EventInputRequested, QuestionID: "q1"},
		{Kind: task.EventRunStarted}, {Kind: task.EventInputRequested, QuestionID: "q2"}, {Kind: task.EventInputRequested, QuestionID: "q3"}}
	rs := rounds(tk)
	if len(rs) != 3 || !rs[0].Earlier || rs[1].Earlier || rs[2].Earlier {
		t.Fatalf("rounds: %+v", rs)
	}
	if len(rs[0].Comments) != 1 || rs[0].Comments[0].Line != 9 {
		t.Errorf("the earlier round's comments: %+v", rs[0].Comments)
	}
}
