package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatal("tmux is needed (apt-get install tmux): ", err)
	}
	root := t.TempDir()
	bin := binE2E(t, root)
	writeE2E(t, bin, "claude", fakeClaude)
	os.Chmod(filepath.Join(bin, "claude"), 0o755)
	os.MkdirAll(filepath.Join(root, "agent"), 0o755)
	writeE2E(t, root, "agent/ask.plan", `match Needs a hand
on first
write draft.txt draft
print {"status":"needs_input","summary":"stuck","question":"Which way?"}
on resume
need typed.txt
write final.txt done
print {"status":"completed","summary":"finished after the takeover"}
`)
	dir := filepath.Join(root, "repo")
	env := []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "FAKEAGENT_DIR=" + filepath.Join(root, "agent"),
		"XDG_STATE_HOME=" + filepath.Join(root, "state"), "GIT_CONFIG_NOSYSTEM=1", "HOME=" + root}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: [fakeagent]\n")
	id := strings.TrimSpace(bhE2E(t, dir, "add", "Needs a hand"))
	bhE2E(t, dir, "worker", "--once")
	asked := bhTask(t, dir, id)
	if asked.State != task.AwaitingInput {
		t.Fatalf("%s is %s", id, asked.State)
	}

	sock := "bh-test-" + filepath.Base(root)
	tm := func(args ...string) string {
		c := exec.Command(tmux, append([]string{"-L", sock}, args...)...)
		c.Dir = dir
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v %s", args, err, out)
		}
		return string(out)
	}
	t.Cleanup(func() { exec.Command(tmux, "-L", sock, "kill-server").Run() })
	tm("new-session", "-d", "-s", "bh", "-x", "120", "-y", "30", "bh continue "+id+"; echo EXITED; sleep 30")
	pane := func(want string) string {
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			if p := tm("capture-pane", "-p", "-t", "bh"); strings.Contains(p, want) {
				return p
			}
		}
		t.Fatalf("the pane never showed %q:\n%s", want, tm("capture-pane", "-p", "-t", "bh"))
		return ""
	}
	pane("fake claude --resume " + asked.SessionID)
	pane("you>")
	tm("send-keys", "-t", "bh", "taken over: use the left way", "Enter")
	p := pane("EXITED")
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
