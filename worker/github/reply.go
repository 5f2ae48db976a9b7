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
	for _, words := range commands(body) {
		if len(ans) == len(qs) {
			break
		}
		ans = append(ans, answerOf(qs[len(ans)], words))
	}
	if len(ans) > 0 {
		return ans, true
	}
	if qs[0].Kind() == task.FreeformQuestion && strings.TrimSpace(body) != "" {
		return []task.Answer{{QuestionID: qs[0].ID, Values: []string{task.TrimAnswer(body)}}}, true
	}
	return nil, false
}

// commands are the words of body's /bh lines.
func commands(body string) []string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		rest, found := strings.CutPrefix(strings.TrimSpace(line), "/bh")
		if found && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			out = append(out, strings.TrimSpace(rest))
		}
	}
	return out
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
		a.Values = picks(q, words)
	default:
		a.Values = []string{words}
	}
	return a
}

// picks are the options words pick: numbers ("2", "1, 3") name them in
// order; anything else is a label said in words, spaces and all.
func picks(q task.Question, words string) []string {
	fs := strings.FieldsFunc(words, func(r rune) bool { return r == ',' || r == ' ' })
	if !allNumbers(fs) {
		return []string{words}
	}
	var out []string
	for _, f := range fs {
		if n, _ := strconv.Atoi(f); n >= 1 && n <= len(q.Options) {
			f = q.Options[n-1].Label
		}
		out = append(out, f)
	}
	return out
}

// allNumbers says whether fs are all numbers.
func allNumbers(fs []string) bool {
	for _, f := range fs {
		if _, err := strconv.Atoi(f); err != nil {
			return false
		}
	}
	return len(fs) > 0
}
