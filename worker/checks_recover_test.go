//go:build linux

package worker

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/proc/proctest"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// helperKillCheck runs a worker whose agent completes at once and whose
// check, $BH_CHECK, runs until the test kills the worker; $BH_CHECK_DIR
// is writable in the sandbox.
func helperKillCheck() int {
	s, err := store.Find(".")
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	s.Config.Checks = []string{os.Getenv("BH_CHECK")}
	s.Config.Sandbox.Writable = []string{os.Getenv("BH_CHECK_DIR")}
	f := agent.RunnerFunc(step(map[string]string{"file.txt": "done\n"}, done("wrote it")))
	ctx := context.Background()
	if err := Run(ctx, ctx, s, Options{Runner: f, Once: true}); err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Println("error: the worker was not killed")
	return 1
}

// recoveredProbe is a check that, the first time, says it runs and hangs
// (the worker is killed then), and after that tries what a sandbox must
// refuse, printing what worked.
const recoveredProbe = `: %[1]s
if [ ! -e %[2]s/ran ]; then touch %[2]s/ran; echo started > %[2]s/hang.fifo; read x < %[2]s/hang.fifo; fi
try() { if sh -c "$2" >/dev/null 2>&1; then echo "$1: yes"; else echo "$1: no"; fi; }
try "read home" 'cat "$HOME/notes.txt"'
try "read gitconfig" 'grep -q "\[user\]" "$HOME/.gitconfig"'
try "read ssh key" 'cat "$HOME/.ssh/id_ed25519"'
try "secret env" 'test -n "$SECRET_TOKEN"'
try "bh env" 'test -n "$BH_TASK_ID"'
`

// TestRecoveredCheckRunsSandboxed: a worker killed (SIGKILL) while its
// check runs takes the check with it; the next worker recovers the
// landing and runs the check again, in the sandbox as the first time:
// the user's home (but bh's .gitconfig there), ssh key and the worker's
// secret variables are out of its reach, the work lands.
func TestRecoveredCheckRunsSandboxed(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	dir, token := proctest.Fifo(t), checkToken(t)
	check := fmt.Sprintf(recoveredProbe, token, dir)
	s.Config.Checks, s.Config.Sandbox.Writable = []string{check}, []string{dir}
	killedAndRecovered(t, s, "Killed in its check", check, dir, token)
}

// TestRecoveredHookRunsSandboxed: the same, killed while the user's
// pre-commit hook runs over the work: the recovered landing runs the
// hook again, in the sandbox as the first time.
func TestRecoveredHookRunsSandboxed(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	dir, token := proctest.Fifo(t), checkToken(t)
	// The hooks folder's name carries the token: the hook's command line does.
	hooks := filepath.Join(t.TempDir(), token)
	writeHook(t, hooks, "pre-commit", "#!/bin/sh\n"+fmt.Sprintf(recoveredProbe, token, dir))
	gitT(t, s.Root, "config", "core.hooksPath", hooks)
	s.Config.Sandbox.Writable = []string{dir}
	ev := killedAndRecovered(t, s, "Killed in its hook", "true", dir, token)
	if !strings.Contains(ev.Command, filepath.Join(hooks, "pre-commit")) {
		t.Fatalf("the recovered check is %q, want the hook", ev.Command)
	}
}

// killedAndRecovered runs a task in a worker (check its one check) that
// is killed as recoveredProbe, in a check or a hook, starts; then the
// next worker, which recovers the landing: the probe runs again, in the
// sandbox, and the work lands. It returns the probe's run.
func killedAndRecovered(t *testing.T, s *store.Store, title, check, dir, token string) task.Event {
	home := t.TempDir()
	writeFile(t, home, ".ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\n")
	writeFile(t, home, "notes.txt", "the user's notes\n")
	tk := addTask(t, s, title)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	var out bytes.Buffer
	cmd.Dir, cmd.Stdout, cmd.Stderr = s.Root, &out, &out
	cmd.Env = append(os.Environ(), "BH_WORKER_HELPER=killcheck", "BH_CHECK="+check, "BH_CHECK_DIR="+dir,
		"HOME="+home, "SECRET_TOKEN=hunter2")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() { cmd.Wait(); close(ended) }()
	proctest.Started(t, dir, ended)
	procs := proctest.Procs(t, token)
	cmd.Process.Kill()
	<-ended
	proctest.WaitGone(t, procs) // the probe died with its worker
	if got := getTask(t, s, tk.ID); got.State != task.InProgress || len(checkEvents(got)) != 0 {
		t.Fatalf("after the kill the task is %s with checks %+v\n%s", got.State, checkEvents(got), out.String())
	}

	never := &fake{} // the agent is done: recovery only lands
	evs := runWith(t, s, Options{Runner: never, Env: []string{"HOME=" + home, "SECRET_TOKEN=hunter2"}})
	if len(evs) == 0 || evs[0].Kind != Recovered || len(never.requests()) != 0 {
		t.Fatalf("events %+v, %d agent runs: want the landing recovered", evs, len(never.requests()))
	}
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed || readFile(t, s.Root, "file.txt") != "done\n" {
		t.Fatalf("the task is %s (%s), want landed", got.State, lastNote(got))
	}
	ev := checkEvents(got)
	if len(ev) != 1 {
		t.Fatalf("check events %+v, want the recovered one", ev)
	}
	want := "read home: no\nread gitconfig: yes\nread ssh key: no\nsecret env: no\nbh env: yes"
	if ev[0].ExitCode != 0 || strings.TrimSpace(ev[0].Output) != want {
		t.Fatalf("the recovered probe printed:\n%s\nwant:\n%s", ev[0].Output, want)
	}
	return ev[0]
}
