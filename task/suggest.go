package task

import (
	"slices"
	"strconv"
	"strings"
)

// Every place that tells a human how to answer (bh inbox, bh list
// --awaiting, bh status, the worker's output, notifications, the web page)
// prints the command built here, with the answer a placeholder to fill in
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

// Numbers names the questions t waits on whose ids are given, by their
// numbers as bh respond and the page number them ("question 2", "questions
// 1 and 3"), for messages to people: ids are for --json.
func (t *Task) Numbers(ids []string) string {
	var ns []string
	for _, n := range t.Numbered() {
		if slices.Contains(ids, n.Q.ID) {
			ns = append(ns, strconv.Itoa(n.N))
		}
	}
	switch len(ns) {
	case 0:
		return ""
	case 1:
		return "question " + ns[0]
	}
	return "questions " + strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// number is question qid's number among those t waits on; 0 when it waits
// on no such question.
func (t *Task) number(qid string) int {
	for _, n := range t.Numbered() {
		if n.Q.ID == qid {
			return n.N
		}
	}
	return 0
}

// RespondCommand is the bh respond command that answers q, one of the
// questions t waits on, with the answer left to the human: a placeholder
// in <> (<--yes|--no>, the options of a choice, <answer>). The command ends
// in a placeholder, so that pasted unchanged it is a shell syntax error and
// answers nothing. repo, when not "", is the repository's path, for a
// command run elsewhere.
func RespondCommand(t *Task, q Question, repo string) string {
	return RespondCommands(t, q, repo)[0]
}

// RespondCommands are the ways to answer q, the usual one first: an
// approval can also be rejected with feedback (and a gate with comments on
// lines), a choice answered in one's own words.
func RespondCommands(t *Task, q Question, repo string) []string {
	head := "bh respond " + ShellQuote(t.ID)
	if repo != "" {
		head += " --repo " + ShellQuote(repo)
	}
	if qs := t.Numbered(); len(qs) > 1 {
		if i := slices.IndexFunc(qs, func(n Numbered) bool { return n.Q.ID == q.ID }); i >= 0 {
			head += " --question " + strconv.Itoa(qs[i].N)
		}
	}
	switch q.Kind() {
	case ApprovalQuestion:
		no := head + " --no <feedback>"
		if q.Gate {
			no = head + " --no <feedback> --comment <PATH:LINE=TEXT>"
		}
		return []string{head + " <--yes|--no>", no}
	case ChoiceQuestion:
		labels := make([]string, len(q.Options))
		for i, o := range q.Options {
			labels[i] = ShellQuote(o.Label)
		}
		pick := " --choice <" + strings.Join(labels, "|") + ">"
		if q.MultiSelect {
			pick += " --choice <...>" // it repeats
		}
		return []string{head + pick, head + " --other <words>"}
	}
	return []string{head + " <answer>"}
}

// ShellQuote quotes s for sh: as it is when it holds nothing sh reads
// specially, else in single quotes.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// AskedNumber is question qid's number among the questions asked with it
// (at the same time), as bh respond numbered them while they waited: for
// the history, where ids are for --json. 0 when it was asked alone or
// is no typed question.
func (t *Task) AskedNumber(qid string) int {
	q := t.QuestionByID(qid)
	if q == nil {
		return 0
	}
	n, of := 0, 0
	for i := range t.Questions {
		if t.Questions[i].AskedAt.Equal(q.AskedAt) {
			of++
			if &t.Questions[i] == q {
				n = of
			}
		}
	}
	if of < 2 {
		return 0
	}
	return n
}
