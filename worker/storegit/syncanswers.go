package storegit

import (
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// Two clones may answer one question before either syncs: the merge keeps
// the earlier answer and makes the later one input.unused (task's
// mergeanswers.go). A sync that did so to one of this clone's answers says
// which, lest the human think theirs was used.

// LostAnswer is an answer given here that a sync's merge set aside for
// the earlier one given in another clone.
type LostAnswer struct {
	Task       string `json:"taskId"`
	QuestionID string `json:"questionId"`
	Question   string `json:"question"`
	Answer     string `json:"answer"`     // ours, kept in the history, not used
	Used       string `json:"usedAnswer"` // the other clone's, used instead
}

// answerKey is one answer event: which task, question, when and what.
type answerKey struct {
	task, question, by, text string
	at                       time.Time
}

func keyOf(id string, e task.Event) answerKey {
	return answerKey{id, e.QuestionID, e.By, e.Text, e.At.UTC()}
}

// answersHere are the answers the store holds before a sync.
func answersHere(s *store.Store) map[answerKey]bool {
	tasks, _, _ := s.List() // an unreadable store: the sync says so
	out := map[answerKey]bool{}
	for _, t := range tasks {
		for _, e := range t.History {
			if e.Kind == task.EventInputReceived {
				out[keyOf(t.ID, e)] = true
			}
		}
	}
	return out
}

// lostAnswers are the answers of before that the store now holds as
// input.unused, each with the answer used instead: the last one given to
// the same question before it.
func lostAnswers(s *store.Store, before map[answerKey]bool) []LostAnswer {
	if len(before) == 0 {
		return nil
	}
	tasks, _, _ := s.List()
	var out []LostAnswer
	for _, t := range tasks {
		used := map[string]string{}
		for _, e := range t.History {
			switch e.Kind {
			case task.EventInputRequested:
				delete(used, e.QuestionID)
			case task.EventInputReceived:
				used[e.QuestionID] = e.Text
			case task.EventInputUnused:
				if before[keyOf(t.ID, e)] {
					out = append(out, LostAnswer{Task: t.ID, QuestionID: e.QuestionID, Question: questionText(t, e.QuestionID),
						Answer: e.Text, Used: used[e.QuestionID]})
				}
			}
		}
	}
	return out
}

// questionText is the words of task t's question qid, else its flat one.
func questionText(t *task.Task, qid string) string {
	for i := len(t.Questions) - 1; i >= 0; i-- {
		if t.Questions[i].ID == qid {
			return t.Questions[i].Question
		}
	}
	return strings.TrimSpace(t.Question)
}

// LostLine says what became of a lost answer, in a line.
func LostLine(l LostAnswer) string {
	q := l.QuestionID
	if l.Question != "" {
		q = fmt.Sprintf("%q", l.Question)
	}
	return fmt.Sprintf("%s: your answer to %s (%q) lost to the one given in another clone (%q), which was used; yours stays in the history as not used",
		l.Task, q, l.Answer, l.Used)
}
