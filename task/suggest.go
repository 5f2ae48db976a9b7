package task

import (
	"slices"
	"strconv"
	"strings"
)

// Every place that tells a human how to answer (bh inbox, bh list
// --awaiting, bh status, the worker's output, notifications, the web page)
// prints the command built here, so that what it prints runs as printed
// for the question's type.

// Numbered is a pending question and its number for bh respond --question.
type Numbered struct {
	N int
	Q Question
}

// Numbered pairs each question t waits on with its number for --question:
// its place among the questions of the current round (those asked since
// the oldest pending one), answered or not, so that a number stays put as
// answers come in.
func (t *Task) Numbered() []Numbered {
	qs := t.OpenQuestions()
	if len(qs) == 0 {
		return nil
	}
	since := slices.MinFunc(qs, func(a, b Question) int { return a.AskedAt.Compare(b.AskedAt) }).AskedAt
	var out []Numbered
	n := 0
	for _, q := range t.Questions {
		if q.AskedAt.Before(since) {
			continue
		}
		n++
		if q.Status == QuestionPending {
			out = append(out, Numbered{n, qs[len(out)]})
		}
	}
	if len(out) == 0 { // the flat question
		return []Numbered{{1, qs[0]}}
	}
	return out
}

// RespondCommand is the bh respond command that answers q, one of the
// questions t waits on, runnable as printed: --yes for an approval, the
// first option for a choice, a placeholder in quotes for words. repo, when
// not "", is the repository's path, for a command run elsewhere.
func RespondCommand(t *Task, q Question, repo string) string {
	return RespondCommands(t, q, repo)[0]
}

// RespondCommands are the ways to answer q, the usual one first: an
// approval can also be rejected with feedback, a choice answered in one's
// own words.
func RespondCommands(t *Task, q Question, repo string) []string {
	head := "bh respond " + ShellQuote(t.ID)
	if repo != "" {
		head += " --repo " + ShellQuote(repo)
	}
	if qs := t.Numbered(); len(qs) > 1 {
		for _, n := range qs {
			if n.Q.ID == q.ID {
				head += " --question " + strconv.Itoa(n.N)
				break
			}
		}
	}
	switch q.Kind() {
	case ApprovalQuestion:
		return []string{head + " --yes", head + ` --no "feedback"`}
	case ChoiceQuestion:
		return []string{head + " --choice " + ShellQuote(q.Options[0].Label), head + ` --other "..."`}
	}
	return []string{head + ` "..."`}
}

// ShellQuote quotes s for sh: as it is when it holds nothing sh reads
// specially, else in single quotes.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
