package task

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

var (
	asked1 = time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	now1   = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
)

// waiting is a task awaiting answers to an approval, a choice, a
// multi-select choice and a freeform question, after an older round.
func waiting() *Task {
	opts := []Option{{Label: "GitHub", Description: "the team uses it"}, {Label: "Google"}}
	return &Task{ID: "tm-ab12", State: AwaitingInput, Questions: []Question{
		{ID: "q0", Question: "Old?", Status: QuestionAnswered, Answer: []string{"old"}, AskedAt: asked1.Add(-time.Hour)},
		{ID: "q1", Question: "Ship it?", Header: "Ship", Type: "approval", Status: QuestionPending, AskedAt: asked1},
		{ID: "q2", Question: "Which provider?", Type: "choice", Options: opts, Status: QuestionPending, AskedAt: asked1},
		{ID: "q3", Question: "Which hosts?", Type: "choice", MultiSelect: true, Status: QuestionPending, AskedAt: asked1,
			Options: []Option{{Label: "eu"}, {Label: "us"}, {Label: "Other", Description: "a label of its own"}}},
		{ID: "q4", Question: "Anything else?", Status: QuestionPending, AskedAt: asked1},
	}}
}

func TestAnswerValidation(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ans     Answer
		answer  []string // the stored decision
		comment string
		err     string // part of the error; "" means accepted
	}{
		{"approval yes", Answer{"q1", []string{"yes"}, "", "", nil}, []string{"yes"}, "", ""},
		{"approval any case", Answer{"q1", []string{" NO "}, "add tests", "", nil}, []string{"no"}, "add tests", ""},
		{"approval maybe", Answer{"q1", []string{"maybe"}, "", "", nil}, nil, "", `"maybe" is not an approval: answer yes or no`},
		{"approval twice", Answer{"q1", []string{"yes", "no"}, "", "", nil}, nil, "", "answered yes or no"},
		{"approval empty", Answer{"q1", []string{" "}, "", "", nil}, nil, "", "answered yes or no"},
		{"choice label", Answer{"q2", []string{"github"}, "", "", nil}, []string{"GitHub"}, "", ""},
		{"choice with comment", Answer{"q2", []string{"Google"}, "cheaper", "", nil}, []string{"Google"}, "cheaper", ""},
		{"choice not an option", Answer{"q2", []string{"GitLab"}, "", "", nil}, nil, "",
			`tm-ab12 question 2: "GitLab" is not an option: pick one of: GitHub, Google (or other, with your own words)`},
		{"choice two of single", Answer{"q2", []string{"GitHub", "Google"}, "", "", nil}, nil, "", "pick one option, not 2 (GitHub, Google)"},
		{"choice the same twice", Answer{"q2", []string{"GitHub", "GITHUB"}, "", "", nil}, []string{"GitHub"}, "", ""},
		{"choice other", Answer{"q2", []string{"Other"}, "GitLab", "", nil}, []string{"other"}, "GitLab", ""},
		{"choice other without words", Answer{"q2", []string{"other"}, " ", "", nil}, nil, "", `"other" choice needs your own words`},
		{"choice none", Answer{"q2", nil, "", "", nil}, nil, "", "pick one of: GitHub, Google"},
		{"multi several", Answer{"q3", []string{"us", "EU"}, "", "", nil}, []string{"us", "eu"}, "", ""},
		{"multi invalid lists all", Answer{"q3", []string{"eu", "asia"}, "", "", nil}, nil, "", `"asia" is not an option: pick one or more of: eu, us, Other`},
		{"multi label Other is an option", Answer{"q3", []string{"other"}, "", "", nil}, []string{"Other"}, "", ""},
		{"freeform", Answer{"q4", []string{"  No.  "}, "", "", nil}, []string{"No."}, "", ""},
		{"freeform lines keep their indentation", Answer{"q4", []string{" \n\tcode()\n  \tmore \n\n"}, "", "", nil}, []string{"\tcode()\n  \tmore"}, "", ""},
		{"feedback lines keep their indentation", Answer{"q1", []string{"no"}, "\n  - one\n\t- two\n", "", nil}, []string{"no"}, "  - one\n\t- two", ""},
		{"freeform empty", Answer{"q4", []string{""}, "", "", nil}, nil, "", "question 4: empty answer"},
		{"freeform two texts", Answer{"q4", []string{"a", "b"}, "", "", nil}, nil, "", "one text, not 2"},
		{"unknown question", Answer{"q9", []string{"yes"}, "", "", nil}, nil, "", "tm-ab12: no such pending question (it waits on questions 1, 2, 3 and 4)"},
		{"answered question", Answer{"q0", []string{"x"}, "", "", nil}, nil, "", "tm-ab12: no such pending question"},
		{"no with comments on lines", Answer{"q1", []string{"no"}, "", "", []LineComment{{" a.go ", 3, " rename "}}}, []string{"no"}, "", ""},
		{"yes with comments on lines", Answer{"q1", []string{"yes"}, "", "", []LineComment{{"a.go", 3, "x"}}}, nil, "", "comments on lines go with a no"},
		{"comment on line 0", Answer{"q1", []string{"no"}, "", "", []LineComment{{"a.go", 0, "x"}}}, nil, "", "a line number from 1, not 0"},
		{"comment without words", Answer{"q1", []string{"no"}, "", "", []LineComment{{"a.go", 2, " "}}}, nil, "", "a.go:2 has no words"},
		{"no question id", Answer{"", []string{"yes"}, "", "", nil}, nil, "", "say which question the answer is for: it waits on questions 1, 2, 3 and 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tk := waiting()
			before := waiting()
			err := tk.Answer([]Answer{tc.ans}, now1, "human")
			if tc.err != "" {
				var ae *AnswerError
				if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want an AnswerError with %q", err, tc.err)
				}
				if !reflect.DeepEqual(tk, before) {
					t.Errorf("a refused answer changed the task")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			q := tk.Questions[strings.IndexByte("01234", tc.ans.QuestionID[1])]
			if !reflect.DeepEqual(q.Answer, tc.answer) || q.Comment != tc.comment || q.Status != QuestionAnswered {
				t.Errorf("question = %q %q %s, want %q %q answered", q.Answer, q.Comment, q.Status, tc.answer, tc.comment)
			}
			if q.AnsweredAt == nil || !q.AnsweredAt.Equal(now1) {
				t.Errorf("answeredAt = %v", q.AnsweredAt)
			}
			// a partial answer: the task keeps waiting, with one event
			if tk.State != AwaitingInput || len(tk.History) != 1 {
				t.Fatalf("state %s, history %+v", tk.State, tk.History)
			}
			if e := tk.History[0]; e.Kind != EventInputReceived || e.QuestionID != q.ID || e.Text != q.AnswerText() || e.By != "human" {
				t.Errorf("event = %+v", e)
			}
		})
	}
}

func TestAnswerAllOpensTheTask(t *testing.T) {
	tk := waiting()
	// the answers come in any order; events follow the order asked
	err := tk.Answer([]Answer{
		{QuestionID: "q4", Values: []string{"Nothing."}},
		{QuestionID: "q1", Values: []string{"no"}, Comment: "the tests are missing"},
		{QuestionID: "q2", Values: []string{"other"}, Comment: "GitLab"},
	}, now1, "human")
	if err != nil {
		t.Fatal(err)
	}
	if tk.State != AwaitingInput {
		t.Fatalf("state = %s with q3 unanswered", tk.State)
	}
	if err := tk.Answer([]Answer{{QuestionID: "q4", Values: []string{"again"}}}, now1, "human"); err == nil {
		t.Error("answering q4 twice was accepted")
	}
	if err := tk.Answer([]Answer{{Values: []string{"eu"}}}, now1.Add(time.Minute), "human"); err != nil {
		t.Fatal(err) // the only question left needs no id
	}
	if tk.State != Open {
		t.Fatalf("state = %s, want open", tk.State)
	}
	var got []string
	for _, e := range tk.History {
		if e.Kind == EventInputReceived {
			got = append(got, e.QuestionID+"="+e.Text)
		}
	}
	want := []string{"q1=no: the tests are missing", "q2=other: GitLab", "q4=Nothing.", "q3=eu"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events = %q, want %q", got, want)
	}
	last := tk.History[len(tk.History)-1]
	if last.Kind != EventState || last.From != AwaitingInput || last.To != Open {
		t.Errorf("last event = %+v", last)
	}
	// the flat answer holds the whole round, not the older q0
	wantText := "Ship: no: the tests are missing\nWhich provider?: other: GitLab\nWhich hosts?: eu\nAnything else?: Nothing."
	if tk.HumanResponse != wantText || !tk.HumanRespondedAt.Equal(now1.Add(time.Minute)) {
		t.Errorf("humanResponse = %q at %v", tk.HumanResponse, tk.HumanRespondedAt)
	}
}

func TestAnswerFlatQuestion(t *testing.T) {
	tk := &Task{ID: "tm-ab12", State: AwaitingInput, Question: "Tabs?",
		History: []Event{{At: asked1, Kind: EventInputRequested, QuestionID: "q7", Text: "Tabs?"}}}
	p := tk.Pending()
	if len(p) != 1 || p[0].ID != "q7" || p[0].Question != "Tabs?" || p[0].Kind() != FreeformQuestion || !p[0].AskedAt.Equal(asked1) {
		t.Fatalf("Pending = %+v", p)
	}
	if err := tk.Answer([]Answer{{QuestionID: "q7", Values: []string{"spaces"}}}, now1, "human"); err != nil {
		t.Fatal(err)
	}
	if tk.State != Open || tk.HumanResponse != "spaces" || len(tk.Questions) != 0 {
		t.Errorf("task = %s %q %v", tk.State, tk.HumanResponse, tk.Questions)
	}
	var ae *AnswerError // the question it asked last was answered
	if err := tk.Answer([]Answer{{Values: []string{"x"}}}, now1, "human"); !errors.As(err, &ae) || ae.AnsweredBy != "human" {
		t.Errorf("answering an open task: %v", err)
	}
	if len(tk.Pending()) != 0 {
		t.Errorf("an open task waits on %v", tk.Pending())
	}
}

func TestTypedQuestionsErrorNamesEach(t *testing.T) {
	tk := waiting()
	var typed []Question
	for _, q := range tk.Pending() {
		if q.Kind() != FreeformQuestion {
			typed = append(typed, q)
		}
	}
	err := &TypedQuestionsError{ID: tk.ID, Questions: typed}
	if want := "tm-ab12 waits on approval and choice questions, which a reply in words cannot answer"; err.Error() != want {
		t.Errorf("error = %q", err)
	}
}

func TestStop(t *testing.T) {
	for _, st := range States {
		tk := waiting()
		tk.State = st
		err := tk.Stop(" the spec changed ", now1, "human")
		switch st {
		case AwaitingInput, InProgress, Blocked:
			if err != nil {
				t.Fatalf("%s: %v", st, err)
			}
		default:
			var ns *NotStoppableError
			if !errors.As(err, &ns) || ns.State != st || len(tk.History) != 0 {
				t.Errorf("%s: Stop = %v", st, err)
			}
			continue
		}
		if tk.State != Deferred {
			t.Errorf("%s: state = %s", st, tk.State)
		}
		for _, q := range tk.Questions {
			if want := map[bool]string{true: QuestionAnswered, false: QuestionCancelled}[q.ID == "q0"]; q.Status != want {
				t.Errorf("%s: %s is %s, want %s", st, q.ID, q.Status, want)
			}
		}
		if e := tk.History[0]; e.Kind != EventStopped || e.Text != "the spec changed" || e.By != "human" {
			t.Errorf("%s: event = %+v", st, e)
		}
	}
	tk := waiting()
	if err := tk.Stop("  ", now1, "human"); !errors.Is(err, ErrNoReason) || tk.State != AwaitingInput {
		t.Errorf("Stop without a reason = %v, state %s", err, tk.State)
	}
}

// A question answered elsewhere first (another terminal, the web inbox)
// refuses a second answer, naming who answered it and when, whether the
// task still waits on other questions or is open again.
func TestAnswerTwice(t *testing.T) {
	tk := waiting()
	if err := tk.Answer([]Answer{{QuestionID: "q1", Values: []string{"yes"}}}, now1, "web:alice"); err != nil {
		t.Fatal(err)
	}
	want := "tm-ab12: already answered by web:alice at 2026-01-01 12:00:00 UTC"
	err := tk.Answer([]Answer{{QuestionID: "q1", Values: []string{"no"}}}, now1.Add(time.Minute), "human")
	var ae *AnswerError
	if !errors.As(err, &ae) || err.Error() != want || ae.AnsweredBy != "web:alice" {
		t.Fatalf("second answer while others wait: %v, want %q", err, want)
	}
	all := []Answer{{QuestionID: "q2", Values: []string{"GitHub"}}, {QuestionID: "q3", Values: []string{"eu"}},
		{QuestionID: "q4", Values: []string{"no"}}}
	if err := tk.Answer(all, now1, "human"); err != nil || tk.State != Open {
		t.Fatalf("the rest: %v, state %s", err, tk.State)
	}
	err = tk.Answer([]Answer{{QuestionID: "q1", Values: []string{"no"}}}, now1.Add(time.Minute), "human")
	if err == nil || err.Error() != want {
		t.Fatalf("second answer to an open task: %v, want %q", err, want)
	}
	if got := tk.Questions[1].Answer; !reflect.DeepEqual(got, []string{"yes"}) {
		t.Fatalf("q1's answer became %v", got)
	}
}
