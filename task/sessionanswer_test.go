package task

import "testing"

// Words said in a takeover answer every pending question as typed, decide
// no approval, and open the task with who said them in the history.
func TestAnswerInSession(t *testing.T) {
	tk := waiting()
	words := "  use GitHub,\nship after the review "
	if err := tk.Answer([]Answer{{Comment: words, Session: "s-1"}}, now1, "continue:alice"); err != nil {
		t.Fatal(err)
	}
	if tk.State != Open || len(tk.Pending()) != 0 {
		t.Fatalf("state %s, pending %v", tk.State, tk.Pending())
	}
	for _, q := range tk.Questions[1:] {
		if q.Status != QuestionAnswered || q.AnswerText() != words || len(q.Answer) != 0 {
			t.Errorf("%s: %s %q %q", q.ID, q.Status, q.Answer, q.AnswerText())
		}
		if e, ok := tk.LastAnswer(q.ID); !ok || e.By != "continue:alice" || e.Text != words {
			t.Errorf("%s: history %+v", q.ID, e)
		}
	}
	if tk.Questions[0].AnswerText() != "old" {
		t.Errorf("an earlier answer changed: %+v", tk.Questions[0])
	}
}
