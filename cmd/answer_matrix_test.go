package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
)

// The answer matrix: every way of answering crossed with every type of
// question. An answer given must reach the resumed agent byte for byte, in
// the one form the resume prompt gives it ("Answer: " and the question's
// AnswerText); an answer a channel cannot take is refused when it is given,
// with a message that says why, and the task keeps waiting.
//
// A row is the questions the agent asks and a give function: the channel.
// The whole matrix, by file:
//   - answer_matrix_test.go: the answer argument, flags, stdin, --edit,
//     --template and the picker (TestAnswerMatrixCLI);
//   - answer_matrix_term_test.go: bh respond --all and the board in tmux;
//   - answer_matrix_claude_test.go: the real claude, needs_input and MCP ask_human;
//   - answer_matrix_suggest_test.go: the commands notifications and
//     bh inbox --json suggest, pasted and run;
//   - answer_matrix_late_test.go: late answers under onTimeout fail, defer
//     and default;
//   - answer_matrix_sync_test.go: answers given in another clone and synced;
//   - serve_answers_test.go: the web inbox in headless Chromium;
//   - continue_tmux_test.go: bh continue, the real claude in tmux;
//   - ../worker/e2e_codex_mcp_test.go: the real codex's ask_human.

// tricky is an answer that a channel could trim, reflow or expand: leading
// indentation, tabs, blank lines, quotes, shell syntax, unicode.
const tricky = "\tfirst line, indented by a tab\n" +
	"    then four spaces: \"double\", 'single', $HOME, ${x}, `date`, \\n\n" +
	"unicode: café — 日本語 ✓ 🚀\n" +
	"\n" +
	"\tlast\tline\twith\ttabs"

// list is a Markdown list, which starts with a dash.
const list = "- one, with $x\n- two\n\t- nested"

// oneLine is an answer typed on one line, as pickers take it.
const oneLine = `it's "$5" — café, ` + "`a`" + ` & \t`

// The questions a row's agent asks, as its result object spells them.
const (
	asksApproval = `{"question":"Ship it?","type":"approval"}`
	asksChoice   = `{"question":"Which database?","type":"choice","options":[{"label":"PostgreSQL","description":"a server"},{"label":"SQLite"}]}`
	asksMulti    = `{"question":"Which regions?","type":"choice","multiSelect":true,"options":[{"label":"eu"},{"label":"us"},{"label":"asia"}]}`
	asksWords    = `{"question":"How should the config look?","type":"freeform"}`
	asksLabels   = `{"question":"Which name?","type":"choice","options":[{"label":"Ünïcode «label» $x"},{"label":"plain"}]}`
	asksSeveral  = asksApproval + "," + asksChoice + "," + asksWords
)

// said is an answer as the human gave it: the decision and the words.
func said(decision []string, words string) task.Question {
	return task.Question{Answer: decision, Comment: words}
}

// text is a freeform answer: the words are the answer itself.
func text(words string) task.Question { return said([]string{words}, "") }

type matrixRow struct {
	name string
	asks string // the questions, comma-separated JSON objects
	give func(m *matrix, id string) given
	// want is what each question's answer must read, in the order asked;
	// nil when the channel must refuse (refused says how).
	want    []task.Question
	refused *given
	// gate: the task waits for approval of its result (asks is then empty:
	// the agent completes); told is what the resumed agent must read besides.
	gate bool
	told string
	add  []string // bh add's flags besides the title
}

// given is how bh respond (or another channel) ended: its exit code and
// what it said.
type given struct {
	code   int
	stderr string
}

// matrix is one repository whose command agent asks each row's questions
// and completes once resumed.
type matrix struct {
	t          *testing.T
	root, dir  string
	bh         string
	ids        map[string]string // row name → task id
	answerFile string            // what the test editor writes
	answerDir  string            // where bh respond runs: the repository, or a clone of it
	synced     func()            // run before the worker resumes the agents, if set
	notes      string            // where the notifier writes each task's event
}

// sampled is rows under -short: the first row of each channel (the name
// before its slash) and the rows fakeapi.Sampled picks from the rest;
// every row otherwise. Each row costs two agent runs and a landing.
func sampled(rows []matrixRow) []matrixRow {
	var out []matrixRow
	seen := map[string]bool{}
	for i, r := range rows {
		channel, _, _ := strings.Cut(r.name, "/")
		if !seen[channel] || fakeapi.Sampled(i+1) {
			out = append(out, r)
		}
		seen[channel] = true
	}
	return out
}

// newMatrix makes the repository, its config the command agent's and
// config (YAML lines) besides, and has every row's agent ask.
func newMatrix(t *testing.T, rows []matrixRow, config ...string) *matrix {
	t.Helper()
	root := t.TempDir()
	m := &matrix{t: t, root: root, dir: filepath.Join(root, "repo"), bh: filepath.Join(termEnv(t, root), "bh"),
		ids: map[string]string{}, answerFile: filepath.Join(root, "answer.txt")}
	m.answerDir = m.dir
	repoE2E(t, m.dir, "prefix: tm\nagent:\n  kind: command\n  command: [fakeagent]\n"+strings.Join(config, ""))
	writeE2E(t, root, "editor.sh", "#!/bin/sh\ncat \""+m.answerFile+"\" >> \"$1\"\n")
	os.Chmod(filepath.Join(root, "editor.sh"), 0o755)
	for i, r := range rows {
		title := fmt.Sprintf("Row %02d answer matrix %s", i, r.name)
		first := `{"status":"completed","summary":"done"}`
		if r.asks != "" {
			first = `{"status":"needs_input","summary":"asks","questions":[` + r.asks + `]}`
		}
		writeE2E(t, root, fmt.Sprintf("agent/%02d.plan", i), "match Row "+fmt.Sprintf("%02d", i)+" answer matrix\n"+
			"on first\nprint "+first+"\non resume\nprint {\"status\":\"completed\",\"summary\":\"done\"}\n")
		// Priorities in the rows' order: the order bh respond --all asks them.
		add := append([]string{"add", title, "--priority", fmt.Sprintf("P%d", min(i, 4))}, r.add...)
		if r.gate {
			add = append(add, "--gate", "approval")
		}
		m.ids[r.name] = strings.TrimSpace(bhE2E(t, m.dir, add...))
	}
	// The rows' runs are independent: four at once overlap their git and
	// process start-ups, which are most of a row's time.
	bhE2E(t, m.dir, "worker", "--once", "-j", "4")
	return m
}

// respond runs the bh binary in the repository as a person would: stdin,
// then KEY=VALUE environment, then its arguments (ID is the task's id).
func (m *matrix) respond(id, stdin string, env []string, args ...string) given {
	m.t.Helper()
	for i, a := range args {
		if a == "ID" {
			args[i] = id
		}
	}
	c := exec.Command(m.bh, append([]string{"respond"}, args...)...)
	var errOut bytes.Buffer
	c.Dir, c.Stdin, c.Stderr = m.answerDir, strings.NewReader(stdin), &errOut
	c.Env = append(os.Environ(), "NO_COLOR=1", "EDITOR="+filepath.Join(m.root, "editor.sh"))
	c.Env = append(c.Env, env...)
	err := c.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		m.t.Fatalf("bh respond: %v", err)
	}
	m.t.Logf("bh respond %q: exit %d\n%s", args, c.ProcessState.ExitCode(), errOut.String())
	return given{c.ProcessState.ExitCode(), errOut.String()}
}

// editor makes the test editor append text below the marker line.
func (m *matrix) editor(text string) {
	m.t.Helper()
	writeE2E(m.t, m.root, "answer.txt", text)
}

// check runs every row's channel, resumes the agents, and checks what each
// one was told.
func (m *matrix) check(rows []matrixRow) {
	t := m.t
	for _, r := range rows {
		if r.give == nil {
			continue // answered by another row's channel (bh respond --all)
		}
		g := r.give(m, m.ids[r.name])
		if r.refused == nil && g.code != 0 {
			t.Errorf("%s: refused (exit %d): %s", r.name, g.code, g.stderr)
		}
		if r.refused != nil && (g.code != r.refused.code || !strings.Contains(g.stderr, r.refused.stderr)) {
			t.Errorf("%s: exit %d, %q; want exit %d saying %q", r.name, g.code, g.stderr, r.refused.code, r.refused.stderr)
		}
	}
	if m.synced != nil {
		m.synced()
	}
	bhE2E(t, m.dir, "worker", "--once", "-j", "4")
	for _, r := range rows {
		id := m.ids[r.name]
		prompt, err := os.ReadFile(filepath.Join(m.root, "agent", id+".2.prompt"))
		if r.refused != nil {
			if st := bhTask(t, m.dir, id).State; err == nil || st != task.AwaitingInput {
				t.Errorf("%s: refused, yet the task is %s and its agent resumed: %v", r.name, st, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: the agent was not resumed: %v (task %s)", r.name, err, bhTask(t, m.dir, id).State)
			continue
		}
		for i, q := range r.want {
			if want := "\nAnswer: " + q.AnswerText() + "\n"; !strings.Contains(string(prompt), want) {
				t.Errorf("%s: answer %d never reached the agent as %q; its prompt:\n%s", r.name, i+1, want, prompt)
			}
		}
		if !strings.Contains(string(prompt), r.told) {
			t.Errorf("%s: the agent was never told %q; its prompt:\n%s", r.name, r.told, prompt)
		}
	}
}

func TestAnswerMatrixCLI(t *testing.T) {
	rows := []matrixRow{
		// The answer argument: the words, or the comment beside a decision.
		{name: "arg/freeform", asks: asksWords, give: args("ID", tricky), want: []task.Question{text(tricky)}},
		{name: "arg/no+feedback", asks: asksApproval, give: args("ID", "--no", tricky), want: []task.Question{said([]string{"no"}, tricky)}},
		{name: "arg/choice+comment", asks: asksChoice, give: args("ID", "--choice", "sqlite", tricky), want: []task.Question{said([]string{"SQLite"}, tricky)}},
		{name: "arg/list-after-dashes", asks: asksWords, give: args("ID", "--", list), want: []task.Question{text(list)}},
		{name: "arg/list-as-flags", asks: asksWords, give: args("ID", list), refused: &given{2, `"- one, with $x …" reads as flags, not as your answer`}},
		{name: "arg/dashes-after-dashes", asks: asksWords, give: args("ID", "--", "--force is fine"), want: []task.Question{text("--force is fine")}},
		{name: "arg/dashes-word-after-dashes", asks: asksWords, give: args("ID", "--", "--force"), want: []task.Question{text("--force")}},
		{name: "arg/no+dashes-after-dashes", asks: asksApproval, give: args("ID", "--no", "--", "--force was wrong"),
			want: []task.Question{said([]string{"no"}, "--force was wrong")}},
		{name: "arg/dashes-as-flag", asks: asksWords, give: args("ID", "--force is fine"), refused: &given{2, `"--force is fine" reads as a flag, not as your answer`}},
		{name: "arg/dashes-word-as-flag", asks: asksWords, give: args("ID", "--force"), refused: &given{2, `unknown flag: --force`}},
		{name: "arg/words-for-a-choice", asks: asksChoice, give: args("ID", "SQLite"), refused: &given{2, "a reply in words cannot answer"}},
		// Flags.
		{name: "flags/yes", asks: asksApproval, give: args("ID", "--yes"), want: []task.Question{said([]string{"yes"}, "")}},
		{name: "flags/no", asks: asksApproval, give: args("ID", "--no"), want: []task.Question{said([]string{"no"}, "")}},
		{name: "flags/choice", asks: asksChoice, give: args("ID", "--choice", "PostgreSQL"), want: []task.Question{said([]string{"PostgreSQL"}, "")}},
		{name: "flags/multi", asks: asksMulti, give: args("ID", "--choice", "eu", "--choice", "asia"), want: []task.Question{said([]string{"eu", "asia"}, "")}},
		{name: "flags/other", asks: asksChoice, give: args("ID", "--other", tricky), want: []task.Question{said([]string{"other"}, tricky)}},
		{name: "flags/multi+other", asks: asksMulti, give: args("ID", "--choice", "us", "--other", oneLine), want: []task.Question{said([]string{"us", "other"}, oneLine)}},
		{name: "flags/gate-no+feedback", gate: true, give: args("ID", "--no", tricky),
			want: []task.Question{said([]string{"no"}, tricky)}, told: "this feedback:\n\n" + tricky + "\n"},
		{name: "flags/unicode-label", asks: asksLabels, give: args("ID", "--choice", "ÜNÏCODE «LABEL» $X"), want: []task.Question{said([]string{"Ünïcode «label» $x"}, "")}},
		{name: "flags/not-an-option", asks: asksChoice, give: args("ID", "--choice", "MySQL"), refused: &given{2, `"MySQL" is not an option`}},
		{name: "flags/several", asks: asksSeveral, give: inTurn(args("ID", "--yes", "--choice", "SQLite"), args("ID", "--question", "3", tricky)),
			want: []task.Question{said([]string{"yes"}, ""), said([]string{"SQLite"}, ""), text(tricky)}},
		{name: "flags/several+comment", asks: asksSeveral, give: inTurn(args("ID", "--question", "2", "--choice", "SQLite", oneLine),
			args("ID", "--question", "1", "--no", tricky), args("ID", "--question", "3", tricky)),
			want: []task.Question{said([]string{"no"}, tricky), said([]string{"SQLite"}, oneLine), text(tricky)}},
		{name: "flags/text-beside-two-decisions", asks: asksSeveral, give: args("ID", "--yes", "--choice", "SQLite", oneLine),
			refused: &given{2, "the answer text comments on one decision"}},
		// stdin: "-" reads it; piped text with no "-" is refused, not guessed at.
		{name: "stdin/freeform", asks: asksWords, give: piped(tricky+"\n", "ID", "-"), want: []task.Question{text(tricky)}},
		{name: "stdin/no+feedback", asks: asksApproval, give: piped(tricky+"\n", "ID", "--no", "-"), want: []task.Question{said([]string{"no"}, tricky)}},
		{name: "stdin/choice+comment", asks: asksChoice, give: piped(tricky, "ID", "--choice", "SQLite", "-"), want: []task.Question{said([]string{"SQLite"}, tricky)}},
		{name: "stdin/without-dash", asks: asksWords, give: piped(tricky, "ID"), refused: &given{2, "no answer given"}},
		// --edit: the editor writes below the marker line.
		{name: "edit/freeform", asks: asksWords, give: edited(tricky+"\n", "ID", "--edit"), want: []task.Question{text(tricky)}},
		{name: "edit/no+feedback", asks: asksApproval, give: edited("\n"+tricky+"\n\n", "ID", "--no", "--edit"), want: []task.Question{said([]string{"no"}, tricky)}},
		{name: "edit/choice+comment", asks: asksChoice, give: edited(tricky, "ID", "--choice", "SQLite", "--edit"), want: []task.Question{said([]string{"SQLite"}, tricky)}},
		{name: "edit/empty", asks: asksWords, give: edited("", "ID", "--edit"), refused: &given{1, "empty answer: nothing was changed"}},
		// --template NAME: .bh/templates/NAME.md is the answer.
		{name: "template/freeform", asks: asksWords, give: templated(tricky+"\n", "ID", "--template", "matrix"), want: []task.Question{text(tricky)}},
		{name: "template/no+feedback", asks: asksApproval, give: templated(tricky+"\n", "ID", "--no", "--template", "matrix"), want: []task.Question{said([]string{"no"}, tricky)}},
		{name: "template/missing", asks: asksWords, give: args("ID", "--template", "nosuch"), refused: &given{1, `no template "nosuch"`}},
		// The picker on a terminal (Other's words and feedback on one line),
		// the editor for questions in words.
		{name: "picker/yes", asks: asksApproval, give: picked("y\n\n", ""), want: []task.Question{said([]string{"yes"}, "")}},
		{name: "picker/no+feedback", asks: asksApproval, give: picked("n\n"+oneLine+"\n", ""), want: []task.Question{said([]string{"no"}, oneLine)}},
		{name: "picker/choice", asks: asksChoice, give: picked("2\n\n", ""), want: []task.Question{said([]string{"SQLite"}, "")}},
		{name: "picker/unicode-label", asks: asksLabels, give: picked("1\n\n", ""), want: []task.Question{said([]string{"Ünïcode «label» $x"}, "")}},
		{name: "picker/multi", asks: asksMulti, give: picked("1\n3\n0\n\n", ""), want: []task.Question{said([]string{"eu", "asia"}, "")}},
		{name: "picker/yes+comment", asks: asksApproval, give: picked("y\n"+oneLine+"\n", ""), want: []task.Question{said([]string{"yes"}, oneLine)}},
		{name: "picker/choice+comment", asks: asksChoice, give: picked("2\n"+oneLine+"\n", ""), want: []task.Question{said([]string{"SQLite"}, oneLine)}},
		{name: "picker/multi+comment", asks: asksMulti, give: picked("1\n3\n0\n"+oneLine+"\n", ""), want: []task.Question{said([]string{"eu", "asia"}, oneLine)}},
		{name: "picker/other", asks: asksChoice, give: picked("3\n"+oneLine+"\n", ""), want: []task.Question{said([]string{"other"}, oneLine)}},
		{name: "picker/freeform", asks: asksWords, give: picked("", tricky+"\n"), want: []task.Question{text(tricky)}},
		{name: "picker/several", asks: asksSeveral, give: picked("2\n"+oneLine+"\n3\n"+oneLine+"\n", tricky),
			want: []task.Question{said([]string{"no"}, oneLine), said([]string{"other"}, oneLine), text(tricky)}},
	}
	rows = sampled(rows)
	m := newMatrix(t, rows)
	m.check(rows)
}
