package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/notify"
)

// The commands other places suggest, run as a human pastes them: from the
// notification (its JSON, and BH_RESPOND for the first question) and from
// bh inbox --json, each with its placeholder filled in the way a human
// does for the answer they mean, run with sh -c outside the repository.
func TestAnswerMatrixSuggested(t *testing.T) {
	var rows []matrixRow
	for _, src := range []struct {
		name string
		from func(*matrix, string) []string
	}{{"notify", notified}, {"inbox", inboxed}} {
		row := func(kind, asks string, want []task.Question, edits ...func(string) string) matrixRow {
			return matrixRow{name: src.name + "/" + kind, asks: asks, give: suggested(src.from, edits...), want: want}
		}
		rows = append(rows,
			row("yes", asksApproval, []task.Question{said([]string{"yes"}, "")}, swap(" <--yes|--no>", " --yes")),
			row("no+feedback", asksApproval, []task.Question{said([]string{"no"}, tricky)}, swap(" <--yes|--no>", " --no "+sq(tricky))),
			row("choice", asksChoice, []task.Question{said([]string{"PostgreSQL"}, "")}, swap("--choice <PostgreSQL|SQLite>", "--choice PostgreSQL")),
			row("choice+comment", asksChoice, []task.Question{said([]string{"SQLite"}, tricky)},
				swap("--choice <PostgreSQL|SQLite>", "--choice SQLite "+sq(tricky))),
			row("multi", asksMulti, []task.Question{said([]string{"eu", "asia"}, "")},
				swap("--choice <eu|us|asia> --choice <...>", "--choice eu --choice asia")),
			row("other", asksChoice, []task.Question{said([]string{"other"}, tricky)}, swap("--choice <PostgreSQL|SQLite>", "--other "+sq(tricky))),
			row("freeform", asksWords, []task.Question{text(tricky)}, swap("<answer>", sq(tricky))),
			row("several", asksSeveral, []task.Question{said([]string{"no"}, oneLine), said([]string{"SQLite"}, oneLine), text(tricky)},
				swap(" <--yes|--no>", " --no "+sq(oneLine)), swap("--choice <PostgreSQL|SQLite>", "--choice SQLite "+sq(oneLine)),
				swap("<answer>", sq(tricky))))
	}
	rows = sampled(rows)
	notes := filepath.Join(t.TempDir(), "notes")
	os.MkdirAll(notes, 0o755)
	m := newMatrix(t, rows, "notify:\n  - events: [input.requested]\n    command: 'printf %s \"$BH_EVENT_JSON\" > "+
		notes+"/$BH_TASK_ID.json; printf %s \"$BH_RESPOND\" > "+notes+"/$BH_TASK_ID.respond'\n")
	m.notes = notes
	m.check(rows)
}

var sq = task.ShellQuote

// swap replaces the part of the suggestion the human changes; a
// suggestion without it fails the row, saying so.
func swap(old, new string) func(string) string {
	return func(cmd string) string {
		if !strings.Contains(cmd, old) {
			return "echo " + sq("the suggestion "+cmd+" has no "+old) + " >&2; exit 3"
		}
		return strings.Replace(cmd, old, new, 1)
	}
}

// suggested answers each question, in the order asked, with the command
// from suggests for it, edited by the question's edit.
func suggested(from func(*matrix, string) []string, edits ...func(string) string) func(*matrix, string) given {
	return func(m *matrix, id string) given {
		cmds := from(m, id)
		if len(cmds) != len(edits) {
			m.t.Fatalf("%s: %d suggested commands %q, want %d", id, len(cmds), cmds, len(edits))
		}
		var g given
		for i, c := range cmds {
			if g = m.shell(edits[i](c)); g.code != 0 {
				return g
			}
		}
		return g
	}
}

// shell runs a command line with sh -c, outside the repository.
func (m *matrix) shell(line string) given {
	m.t.Helper()
	c := exec.Command("sh", "-c", line)
	var errOut bytes.Buffer
	c.Dir, c.Stderr, c.Env = m.root, &errOut, append(os.Environ(), "NO_COLOR=1")
	err := c.Run()
	if ee := (*exec.ExitError)(nil); err != nil && !errors.As(err, &ee) {
		m.t.Fatalf("sh -c %q: %v", line, err)
	}
	m.t.Logf("sh -c %q: exit %d\n%s", line, c.ProcessState.ExitCode(), errOut.String())
	return given{c.ProcessState.ExitCode(), errOut.String()}
}

// notified is the commands the task's input.requested notification gave,
// one per question; BH_RESPOND is the first's.
func notified(m *matrix, id string) []string {
	var e notify.Event
	b, err := os.ReadFile(filepath.Join(m.notes, id+".json"))
	if err == nil {
		err = json.Unmarshal(b, &e)
	}
	if err != nil {
		m.t.Fatalf("%s: the notification: %v", id, err)
	}
	var cmds []string
	for _, q := range e.Questions {
		cmds = append(cmds, q.Respond)
	}
	if env := readE2E(m.t, m.notes, id+".respond"); len(cmds) == 0 || env != cmds[0] || e.Respond != cmds[0] {
		m.t.Errorf("%s: BH_RESPOND %q and respond %q, yet the first question's command is %q", id, env, e.Respond, cmds)
	}
	return cmds
}

// inboxed is the commands bh inbox --json gives for the task's questions,
// in the order asked.
func inboxed(m *matrix, id string) []string {
	var items []store.InboxItem
	if err := json.Unmarshal([]byte(bhE2E(m.t, m.root, "inbox", "--json")), &items); err != nil {
		m.t.Fatal(err)
	}
	byQ := map[string]string{}
	for _, it := range items {
		if it.TaskID == id {
			byQ[it.QuestionID] = it.Respond
		}
	}
	var cmds []string
	for _, q := range bhTask(m.t, m.dir, id).Pending() {
		if c, ok := byQ[q.ID]; ok {
			cmds = append(cmds, c)
		}
	}
	return cmds
}
