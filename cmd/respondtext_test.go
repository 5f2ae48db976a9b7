package cmd

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

func TestParseAnswer(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"below the marker", "# q\n" + answerMarker + "\nyes\n", "yes"},
		{"typed on line 1", "Blue\n# q\n#\n" + answerMarker + "\n\n", "Blue"},
		{"typed above and below", "I typed here\n# q\n" + answerMarker + "\n\n  Use X.\n\nThen Y.\n\n", "I typed here\n\n  Use X.\n\nThen Y."},
		{"typed between the comments", "# q\nBlue\n# more\n" + answerMarker + "\n", "Blue"},
		{"indentation and tabs are the human's", answerMarker + "\n\n\tcode()\n  \tmore\t \n", "\tcode()\n  \tmore"},
		{"comments below are kept", answerMarker + "\n# a heading\ntext", "# a heading\ntext"},
		{"indented marker", "  " + answerMarker + "  \nok", "ok"},
		{"windows line ends", "# q\r\n" + answerMarker + "\r\nyes\r\n", "yes"},
		{"only the first marker counts", answerMarker + "\n" + answerMarker + "\n", answerMarker},
		{"empty answer", "# q\n" + answerMarker + "\n\n   \n", ""},
		{"marker removed", "# q\nyes\n", "yes"},
		{"marker changed", "# Write your answer below\nyes", "yes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := parseAnswer(tc.text); got != tc.want {
				t.Errorf("parseAnswer = %q; want %q", got, tc.want)
			}
		})
	}
}

func TestAnswerTemplateRoundTrip(t *testing.T) {
	tk := &task.Task{ID: "tm-ab12", Title: "Pick", State: task.AwaitingInput,
		Question: "Flat question?", QuestionContext: "flat context",
		Questions: []task.Question{
			{ID: "q1", Question: "First?\nSecond line", Context: "ctx one", Status: task.QuestionPending,
				Options: []task.Option{{Label: "A", Description: "the first"}, {Label: "B"}}},
			{ID: "q2", Question: "Other?", Status: task.QuestionPending},
			{ID: "q0", Question: "Old?", Status: task.QuestionAnswered},
		}}
	tmpl := answerTemplate(tk, tk.OpenQuestions(), "")
	for _, want := range []string{
		"# Answering tm-ab12: Pick\n",
		"# Question 1:\n#   First?\n#   Second line\n",
		"# Context:\n#   ctx one\n",
		"# Choices:\n#   - A: the first\n#   - B\n",
		"# Question 2:\n#   Other?\n",
		answerMarker + "\n",
	} {
		if !strings.Contains(tmpl, want) {
			t.Errorf("template lacks %q:\n%s", want, tmpl)
		}
	}
	// typed questions take the place of the flat one; answered ones are gone
	for _, not := range []string{"Flat question?", "Old?"} {
		if strings.Contains(tmpl, not) {
			t.Errorf("template shows %q:\n%s", not, tmpl)
		}
	}
	// the untouched template is an empty answer, not an error
	if got := parseAnswer(tmpl); got != "" {
		t.Errorf("parseAnswer(template) = %q", got)
	}
	if got := parseAnswer(tmpl + "B, because.\n"); got != "B, because." {
		t.Errorf("parseAnswer(template+answer) = %q", got)
	}
	// a response template's text starts the answer
	pre := answerTemplate(tk, tk.OpenQuestions()[1:], "  LGTM.\n\n")
	if got := parseAnswer(pre); got != "LGTM." || strings.Contains(pre, "First?") {
		t.Errorf("prefilled template = %q:\n%s", got, pre)
	}
}
