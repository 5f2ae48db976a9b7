package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
)

// claudePatience bounds each wait on the real interactive claude (before
// waitWithin scales it): it starts a Node runtime and its TUI; a pass takes
// seconds.
const claudePatience = time.Minute

const (
	// userClaudeJSON is the user's own ~/.claude.json: claude set up once.
	userClaudeJSON = `{"hasCompletedOnboarding": true, "theme": "dark"}`
	takeoverTitle  = "Needs a hand"
	takeoverSaid   = "taken over: use the left way"
)

// bh continue with the real interactive claude, against the fake API, on a
// HOME where claude only ever ran in print mode for the worker (and whose
// user completed claude's onboarding): the session opens without a trust or
// API-key dialog, with the worker's permission mode and bh's MCP server. A
// claude that fails to start, and a session left with /exit and no word,
// leave the question pending; a line typed in the session answers it, and
// the worker resumes the session and lands.
func TestContinueInTmux(t *testing.T) {
	dir, asked := awaitingTakeover(t)
	id := asked.ID
	pending := func(when string) {
		t.Helper()
		if tk := bhTask(t, dir, id); tk.State != task.AwaitingInput || len(tk.Pending()) != 1 {
			t.Fatalf("%s: %s, pending %+v", when, tk.State, tk.Pending())
		}
	}

	// claude refuses to start (a flag it does not know, from the config).
	cfg := readE2E(t, dir, ".bh/config.yaml")
	writeE2E(t, dir, ".bh/config.yaml", cfg+"  extraArgs: [--no-such-flag]\n")
	term := newTmuxPane(t, dir, "bh continue "+id+"; echo EXITED $?; sleep 60")
	p := term.waitWithin("EXITED", claudePatience)
	if !strings.Contains(p, "EXITED 1") || !strings.Contains(p, id+" still waits for you") {
		t.Errorf("a claude that cannot start:\n%s", p)
	}
	pending("after a claude that could not start")
	writeE2E(t, dir, ".bh/config.yaml", cfg)

	// /exit without a word.
	term = newTmuxPane(t, dir, "bh continue "+id+"; echo EXITED $?; sleep 60")
	p = term.waitWithin("accept edits on", claudePatience) // the worker's permission mode
	for _, dialog := range []string{"trust", "API key", "Accessing workspace"} {
		if strings.Contains(p, dialog) {
			t.Fatalf("claude asks (%q):\n%s", dialog, p)
		}
	}
	// The takeover's claude keeps its state in the task's own folder, a
	// fresh copy of the user's config with the setup done; the user's own
	// config is as it was.
	conf := os.Getenv("CLAUDE_CONFIG_DIR")
	if got := readE2E(t, conf, ".claude.json"); got != userClaudeJSON {
		t.Errorf("the takeover changed the user's .claude.json:\n%s", got)
	}
	own, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_STATE_HOME"), "bh", "agents", "*", id, "claude", ".claude.json"))
	if len(own) != 1 {
		t.Fatalf("the task's own claude config: %q", own)
	}
	if b, _ := os.ReadFile(own[0]); !strings.Contains(string(b), `"hasCompletedOnboarding": true`) {
		t.Errorf("the takeover's config lacks the finished setup:\n%s", b)
	}
	term.exitClaude()
	p = term.waitWithin("EXITED", claudePatience)
	if !strings.Contains(p, "EXITED 0") || !strings.Contains(p, "you said nothing") {
		t.Errorf("a session left without a word:\n%s", p)
	}
	pending("after a session left without a word")

	// A line typed in the session answers the question.
	term = newTmuxPane(t, dir, "bh continue "+id+"; echo EXITED $?; sleep 60")
	term.waitWithin("accept edits on", claudePatience)
	// The session has the worker's git rules and bh's MCP server.
	argvs, pid := takeoverArgv(t, asked.SessionID)
	argv := strings.Join(argvs, " ")
	// It runs in the worker's sandbox: a PID namespace of its own.
	if status, _ := os.ReadFile("/proc/" + pid + "/status"); !regexp.MustCompile(`(?m)^NSpid:\s+\d+\s+\d+`).Match(status) {
		t.Errorf("the takeover's claude is not in a sandbox's PID namespace:\n%s", status)
	}
	for _, want := range []string{"--permission-mode acceptEdits", "--disallowedTools=Bash(git commit:*)",
		"--mcp-config", "--permission-prompt-tool mcp__bh__permission_prompt"} {
		if !strings.Contains(argv, want) {
			t.Errorf("the takeover's claude lacks %q: %s", want, argv)
		}
	}
	term.keys(takeoverSaid)
	term.waitWithin(takeoverSaid, claudePatience)
	term.keys("Enter")
	term.waitWithin("Going left.", claudePatience)
	term.exitClaude()
	p = term.waitWithin("EXITED", claudePatience)
	if !strings.Contains(p, "EXITED 0") || !strings.Contains(p, id+" is open again") {
		t.Errorf("the pane after the session:\n%s", p)
	}
	open := bhTask(t, dir, id)
	if open.State != task.Open || len(open.Pending()) != 0 || open.Questions[0].AnswerText() != takeoverSaid {
		t.Fatalf("after the takeover: %s, questions %+v", open.State, open.Questions)
	}
	e, _ := open.LastAnswer(open.Questions[0].ID)
	if e.Text != takeoverSaid || !strings.HasPrefix(e.By, "continue:") {
		t.Errorf("the answer in the history: %+v", e)
	}
	// The worker resumes the same session, with the words as the answer.
	bhE2E(t, dir, "worker", "--once")
	done := bhTask(t, dir, id)
	if done.State != task.Closed || done.SessionID != asked.SessionID {
		t.Fatalf("after the worker: %s (%s), session %s -> %s", done.State, done.Summary, asked.SessionID, done.SessionID)
	}
	if got := gitE2E(t, dir, "show", "HEAD:final.txt"); got != "left" {
		t.Errorf("final.txt in the landed commit = %q", got)
	}
}

// bh continue of a session that is still planning opens the real claude
// in its plan mode, in the worker's sandbox with bh's MCP server, as the
// planning run ran; left without a word, the task waits as it did.
func TestContinuePlanningInTmux(t *testing.T) {
	dir, asked := awaitingTakeover(t, "--plan")
	id := asked.ID
	term := newTmuxPane(t, dir, "bh continue "+id+"; echo EXITED $?; sleep 60")
	term.waitWithin("plan mode on", claudePatience)
	argvs, _ := takeoverArgv(t, asked.SessionID)
	argv := strings.Join(argvs, " ")
	for _, want := range []string{"--permission-mode plan", "--disallowedTools=ExitPlanMode", "--mcp-config"} {
		if !strings.Contains(argv, want) {
			t.Errorf("the takeover's claude lacks %q: %s", want, argv)
		}
	}
	term.exitClaude()
	if p := term.waitWithin("EXITED", claudePatience); !strings.Contains(p, "EXITED 0") {
		t.Errorf("the pane after the session:\n%s", p)
	}
	if tk := bhTask(t, dir, id); tk.State != task.AwaitingInput || len(tk.Pending()) != 1 {
		t.Fatalf("after the takeover: %s, pending %+v", tk.State, tk.Pending())
	}
}

// takeoverArgv is the command line and pid of the running interactive
// claude --resume session (not a print-mode run).
func takeoverArgv(t *testing.T, session string) ([]string, string) {
	t.Helper()
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		b, _ := os.ReadFile(f)
		argv := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if slices.Contains(argv, "--resume") && slices.Contains(argv, session) && !slices.Contains(argv, "-p") &&
			argv[0] != "bwrap" && !strings.HasSuffix(argv[0], "/bwrap") {
			return argv, filepath.Base(filepath.Dir(f))
		}
	}
	t.Fatalf("no claude --resume %s is running", session)
	return nil, ""
}

// exitClaude leaves an interactive claude with /exit.
func (p *tmuxPane) exitClaude() {
	p.t.Helper()
	p.keys("/exit")
	p.waitWithin("/exit", claudePatience)
	p.keys("Enter")
}

// awaitingTakeover makes a repository whose one task, run by the real
// claude against a fake API, waits on a question. The environment is a
// terminal's, with claude's HOME fresh but for a user's finished onboarding.
// In the session, claude answers takeoverSaid with "Going left."; the
// worker's resume, whose prompt must carry those words as the answer, then
// writes final.txt and completes.
// add are bh add's flags for the task (--plan).
func awaitingTakeover(t *testing.T, add ...string) (dir string, asked *task.Task) {
	t.Helper()
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		last := req.Prompt()
		switch {
		case !strings.Contains(strings.Join(req.UserTexts(), "\n"), takeoverTitle):
		case wrote(req, "final.txt"):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "went left"}))
		case strings.Contains(last, "Answer: "+takeoverSaid):
			return fakeapi.Reply(fakeapi.Write("final.txt", "left\n"))
		case last == takeoverSaid:
			return fakeapi.Reply(fakeapi.Text("Going left."))
		case strings.Contains(last, takeoverTitle):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "needs_input",
				"summary": "stuck", "question": "Which way?"}))
		}
		t.Errorf("unexpected request #%d, prompt %q", req.N, last)
		return fakeapi.Fail(400, "invalid_request_error", "unexpected prompt")
	})
	claude := fakeapi.Claude(t)
	root := t.TempDir()
	termEnv(t, root)
	t.Setenv("BH_SANDBOX", "") // the real claude runs sandboxed, the takeover too
	for _, kv := range fakeapi.Env(t, srv) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	conf := os.Getenv("CLAUDE_CONFIG_DIR")
	os.MkdirAll(conf, 0o700)
	writeE2E(t, conf, ".claude.json", userClaudeJSON)
	dir = filepath.Join(root, "repo")
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: claude\n  binary: "+claude+"\n  timeout: "+realTimeout+"\n")
	id := strings.TrimSpace(bhE2E(t, dir, append([]string{"add", takeoverTitle}, add...)...))
	bhE2E(t, dir, "worker", "--once")
	asked = bhTask(t, dir, id)
	if asked.State != task.AwaitingInput {
		t.Fatalf("%s is %s", id, asked.State)
	}
	return dir, asked
}
