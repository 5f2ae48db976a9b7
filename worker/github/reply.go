package github

import (
	"strconv"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// ParseReply reads a reply on the issue as answers to the pending
// questions qs, in order: each line `/bh <answer>` answers the next one
// (`/bh 2` picks a choice's second option, `/bh yes`, `/bh no <feedback>`,
// `/bh <words>` for a freeform question); a reply without a /bh line is
// the words of a freeform question when that is what is asked first.
// ok is false for a reply that answers nothing (talk on the issue).
func ParseReply(body string, qs []task.Question) (ans []task.Answer, ok bool) {
	if len(qs) == 0 {
		return nil, false
	}
	for _, line := range strings.Split(body, "\n") {
		rest, found := strings.CutPrefix(strings.TrimSpace(line), "/bh")
		if !found || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		if len(ans) == len(qs) {
			break
		}
		ans = append(ans, answerOf(qs[len(ans)], strings.TrimSpace(rest)))
	}
	if len(ans) > 0 {
		return ans, true
	}
	if qs[0].Kind() == task.FreeformQuestion && strings.TrimSpace(body) != "" {
		return []task.Answer{{QuestionID: qs[0].ID, Values: []string{task.TrimAnswer(body)}}}, true
	}
	return nil, false
}

// answerOf is one /bh line's answer to q, as given: what does not fit is
// refused by the door, with its reason.
func answerOf(q task.Question, words string) task.Answer {
	a := task.Answer{QuestionID: q.ID}
	switch q.Kind() {
	case task.ApprovalQuestion:
		verdict, feedback, _ := strings.Cut(words, " ")
		a.Values, a.Comment = []string{strings.ToLower(verdict)}, strings.TrimSpace(feedback)
	case task.ChoiceQuestion:
		for _, f := range strings.FieldsFunc(words, func(r rune) bool { return r == ',' || r == ' ' }) {
			if n, err := strconv.Atoi(f); err == nil && n >= 1 && n <= len(q.Options) {
				f = q.Options[n-1].Label
			}
			a.Values = append(a.Values, f)
		}
		if len(a.Values) == 0 || !allNumbers(words) {
			a.Values = []string{words} // a label said in words, spaces and all
			if n, err := strconv.Atoi(words); err == nil && n >= 1 && n <= len(q.Options) {
				a.Values = []string{q.Options[n-1].Label}
			}
		}
	default:
		a.Values = []string{words}
	}
	return a
}

// allNumbers says whether words are option numbers only ("1, 3").
func allNumbers(words string) bool {
	fs := strings.FieldsFunc(words, func(r rune) bool { return r == ',' || r == ' ' })
	for _, f := range fs {
		if _, err := strconv.Atoi(f); err != nil {
			return false
		}
	}
	return len(fs) > 0
}
