package task

import (
	"os/exec"
	"testing"
	"time"
)

// Numbers count every question of the round, so they stay put as answers
// come in; older rounds do not count.
func TestNumbered(t *testing.T) {
	at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	tk := &Task{ID: "tm-ab12", State: AwaitingInput, Questions: []Question{
		{ID: "q0", Status: QuestionAnswered, AskedAt: at.Add(-time.Hour)},
		{ID: "q1", Status: QuestionAnswered, AskedAt: at},
		{ID: "q2", Status: QuestionPending, AskedAt: at},
		{ID: "q3", Status: QuestionExpired, AskedAt: at},
		{ID: "q4", Status: QuestionPending, AskedAt: at},
	}}
	got := tk.Numbered()
	if len(got) != 2 || got[0].N != 2 || got[0].Q.ID != "q2" || got[1].N != 4 || got[1].Q.ID != "q4" {
		t.Errorf("Numbered = %+v", got)
	}
	flat := &Task{ID: "tm-cd34", State: AwaitingInput, Question: "Why?"}
	if got := flat.Numbered(); len(got) != 1 || got[0].N != 1 || got[0].Q.Question != "Why?" {
		t.Errorf("flat.Numbered() = %+v", got)
	}
	if got := (&Task{State: Open}).Numbered(); got != nil {
		t.Errorf("Numbered(open) = %+v", got)
	}
}

// Each question type gets the command that answers it, with the answer a
// placeholder for the human to fill in: the labels quoted for sh, --repo
// from elsewhere, --question N when the task waits on several.
func TestRespondCommands(t *testing.T) {
	at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	approval := Question{ID: "q1", Type: ApprovalQuestion, Status: QuestionPending, AskedAt: at}
	choice := Question{ID: "q2", Type: ChoiceQuestion, Status: QuestionPending, AskedAt: at,
		Options: []Option{{Label: "it's SQLite"}, {Label: "Postgres"}}}
	words := Question{ID: "q3", Type: FreeformQuestion, Status: QuestionPending, AskedAt: at}
	gate := Question{ID: "q4", Type: ApprovalQuestion, Gate: true, Status: QuestionPending, AskedAt: at}
	multi := Question{ID: "q5", Type: ChoiceQuestion, MultiSelect: true, Status: QuestionPending, AskedAt: at,
		Options: []Option{{Label: "eu"}, {Label: "us"}}}
	one := func(q Question) *Task { return &Task{ID: "tm-a1", State: AwaitingInput, Questions: []Question{q}} }
	all := &Task{ID: "tm-a1", State: AwaitingInput, Questions: []Question{approval, choice, words}}
	for _, c := range []struct {
		t    *Task
		q    Question
		repo string
		want []string
	}{
		{one(approval), approval, "", []string{"bh respond tm-a1 <--yes|--no>", "bh respond tm-a1 --no <feedback>"}},
		{one(gate), gate, "", []string{"bh respond tm-a1 <--yes|--no>", "bh respond tm-a1 --no <feedback> --comment <PATH:LINE=TEXT>"}},
		{one(choice), choice, "", []string{`bh respond tm-a1 --choice <'it'\''s SQLite'|Postgres>`, "bh respond tm-a1 --other <words>"}},
		{one(multi), multi, "", []string{"bh respond tm-a1 --choice <eu|us> --choice <...>", "bh respond tm-a1 --other <words>"}},
		{one(words), words, "/home/me/my repo", []string{"bh respond tm-a1 --repo '/home/me/my repo' <answer>"}},
		{all, choice, "/r", []string{`bh respond tm-a1 --repo /r --question 2 --choice <'it'\''s SQLite'|Postgres>`,
			"bh respond tm-a1 --repo /r --question 2 --other <words>"}},
		{all, words, "", []string{"bh respond tm-a1 --question 3 <answer>"}},
		{&Task{ID: "tm-a1", State: AwaitingInput, Question: "Why?"}, Question{Question: "Why?"}, "",
			[]string{"bh respond tm-a1 <answer>"}},
	} {
		got := RespondCommands(c.t, c.q, c.repo)
		if len(got) != len(c.want) {
			t.Errorf("%s: got %q, want %q", c.q.ID, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: got %q, want %q", c.q.ID, got[i], c.want[i])
			}
		}
		if RespondCommand(c.t, c.q, c.repo) != got[0] {
			t.Errorf("%s: RespondCommand is not the first of RespondCommands", c.q.ID)
		}
	}
}

// What ShellQuote quotes, sh reads back as it was.
func TestShellQuote(t *testing.T) {
	for _, s := range []string{"", "plain-label_1.0", "two words", `it's "quoted"`, "a\nb", "$HOME `x` !*?", "-dash", "\\"} {
		out, err := exec.Command("sh", "-c", "printf %s "+ShellQuote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("ShellQuote(%q) = %s: sh read %q (%v)", s, ShellQuote(s), out, err)
		}
	}
}
