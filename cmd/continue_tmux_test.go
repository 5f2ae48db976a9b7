package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// fakeClaude stands in for an interactive claude --resume: it shows its
// arguments, reads what the human types and leaves it in the worktree.
const fakeClaude = `#!/bin/sh
if [ "$1" = --version ]; then echo "2.1.330 (Claude Code)"; exit 0; fi
echo "fake claude $*"
printf 'you> '
read line
echo "$line" > typed.txt
echo "bye"
`

// bh continue, driven in tmux as a person would: the waiting task's
// session opens in the terminal, in the task's worktree; what the human
// types there happens in the session; on exit the task is open again and
// the worker resumes the same session for its result.
func TestContinueInTmux(t *testing.T) {
	dir, asked := awaitingTakeover(t)
	id := asked.ID
	term := newTmuxPane(t, dir, "bh continue "+id+"; echo EXITED; sleep 30")
	term.waitFor("fake claude --resume " + asked.SessionID)
	term.waitFor("you>")
	term.keys("taken over: use the left way", "Enter")
	p := term.waitFor("EXITED")
	if !strings.Contains(p, id+" is open again") {
		t.Errorf("the pane after the session:\n%s", p)
	}
	open := bhTask(t, dir, id)
	if open.State != task.Open || len(open.Pending()) != 0 {
		t.Fatalf("after the takeover: %s, pending %+v", open.State, open.Pending())
	}
	// The worker resumes the same session, with what the human did in it.
	bhE2E(t, dir, "worker", "--once")
	done := bhTask(t, dir, id)
	if done.State != task.Closed || done.SessionID != asked.SessionID {
		t.Fatalf("after the worker: %s (%s), session %s -> %s", done.State, done.Summary, asked.SessionID, done.SessionID)
	}
	if got := gitE2E(t, dir, "show", "HEAD:typed.txt"); got != "taken over: use the left way" {
		t.Errorf("typed.txt in the landed commit = %q", got)
	}
}

// awaitingTakeover makes a repository, in a terminal environment with the
// fake claude, whose one task waits on a question after a first run; the
// fake agent finishes it once a takeover left typed.txt in its worktree.
func awaitingTakeover(t *testing.T) (dir string, asked *task.Task) {
	t.Helper()
	root := t.TempDir()
	bin := termEnv(t, root)
	writeE2E(t, bin, "claude", fakeClaude)
	os.Chmod(filepath.Join(bin, "claude"), 0o755)
	writeE2E(t, root, "agent/ask.plan", `match Needs a hand
on first
write draft.txt draft
print {"status":"needs_input","summary":"stuck","question":"Which way?"}
on resume
need typed.txt
write final.txt done
print {"status":"completed","summary":"finished after the takeover"}
`)
	dir = filepath.Join(root, "repo")
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: [fakeagent]\n")
	id := strings.TrimSpace(bhE2E(t, dir, "add", "Needs a hand"))
	bhE2E(t, dir, "worker", "--once")
	asked = bhTask(t, dir, id)
	if asked.State != task.AwaitingInput {
		t.Fatalf("%s is %s", id, asked.State)
	}
	return dir, asked
}
