package crash

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
)

// The crash-point test kills `bh worker` with SIGKILL right before and
// right after each git command it runs, through a git wrapper on its PATH,
// across a scenario that lands (A), discards (B), parks (C), and after an
// answer resumes and lands C. After each crash the worker is simply run
// again; the end state must be the same as without any crash.

// gitWrapper counts the worker's git commands and kills the worker (its
// parent) at command $BH_CRASH_AT, before or after running it.
const gitWrapper = `#!/bin/sh
n=$(( $(cat "$BH_CRASH_DIR/count" 2>/dev/null || echo 0) + 1 ))
echo $n > "$BH_CRASH_DIR/count"
if [ "$n" = "$BH_CRASH_AT" ] && [ "$BH_CRASH_WHEN" = before ]; then kill -9 $PPID; exit 137; fi
"$BH_REAL_GIT" "$@"
rc=$?
if [ "$n" = "$BH_CRASH_AT" ] && [ "$BH_CRASH_WHEN" = after ]; then kill -9 $PPID; fi
exit $rc
`

const crashPlans = `-- a.plan --
match Write A
write a.txt from A
print {"status":"completed","summary":"wrote a.txt"}
-- b.plan --
match Break B
write README.md clobbered
write b.txt from B
print {"status":"failed","summary":"cannot"}
-- c.plan --
match Ask C
on noanswer Answer: go
write c.txt draft
print {"status":"needs_input","summary":"drafted","question":"Which?"}
on answer Answer: go
need c.txt
write c2.txt done
print {"status":"completed","summary":"wrote c"}
`

// crashEnv is one scenario's world: a bin dir with bh, fakeagent and the
// git wrapper, and a template repository copied for each run.
type crashEnv struct {
	bin, template, realGit string
}

func newCrashEnv(t *testing.T) *crashEnv {
	t.Helper()
	root := t.TempDir()
	e := &crashEnv{bin: filepath.Join(root, "bin"), template: filepath.Join(root, "tpl")}
	var err error
	if e.realGit, err = exec.LookPath("git"); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(e.bin, 0o755)
	for _, name := range []string{"bh", "fakeagent"} {
		if err := os.Symlink(self, filepath.Join(e.bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	e2e.Write(t, e.bin, "git", gitWrapper)
	os.Chmod(filepath.Join(e.bin, "git"), 0o755)
	os.MkdirAll(filepath.Join(root, "agent"), 0o755)
	for name, body := range e2e.SplitTxtar(crashPlans) {
		if name != "" {
			e2e.Write(t, root, "agent/"+name, body)
		}
	}
	// The template: a repository with bh, three tasks and the user's own work in progress.
	dir := e.template
	bhE2E.Repo(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: [fakeagent]\n")
	e2e.Write(t, dir, "README.md", "# project\n")
	e2e.Write(t, dir, "src.txt", "source\n")
	e2e.Write(t, dir, "staged.txt", "staged\n")
	e2e.Git(t, dir, "add", "-A")
	e2e.Git(t, dir, "commit", "-q", "-m", "project files")
	for _, title := range []string{"Write A", "Break B", "Ask C"} {
		bhE2E(t, dir, "add", title)
	}
	e2e.Write(t, dir, "src.txt", "source\nthe user's edit\n")
	e2e.Write(t, dir, "notes.txt", "the user's notes\n")
	e2e.Write(t, dir, "staged.txt", "staged by the user\n")
	e2e.Git(t, dir, "add", "staged.txt")
	return e
}

// scenario plays the whole story in a copy of the template, crashing the
// worker at git command `at` (0: never) `when` (before, after). It returns
// how many git commands the worker ran, and the repository.
//
// With when "random", the first worker is killed `at` milliseconds after it starts instead.
func (e *crashEnv) scenario(t *testing.T, at int, when string) (int, string) {
	t.Helper()
	work := t.TempDir()
	dir := filepath.Join(work, "repo")
	if out, err := exec.Command("cp", "-a", e.template, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	crashDir := filepath.Join(work, "crash")
	os.MkdirAll(crashDir, 0o755)
	env := append(os.Environ(), "PATH="+e.bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"BH_REAL_GIT="+e.realGit, "BH_CRASH_DIR="+crashDir, "BH_CRASH_AT="+strconv.Itoa(at), "BH_CRASH_WHEN="+when,
		"FAKEAGENT_DIR="+filepath.Join(filepath.Dir(e.bin), "agent"), "XDG_STATE_HOME="+filepath.Join(work, "state"),
		"GIT_CONFIG_NOSYSTEM=1", "BH_SANDBOX=off")
	bh := func(args ...string) error {
		c := exec.Command(filepath.Join(e.bin, "bh"), args...)
		var buf bytes.Buffer
		c.Dir, c.Env, c.Stdout, c.Stderr = dir, env, &buf, &buf
		err := c.Start()
		if err == nil && when == "random" && at > 0 && args[0] == "worker" {
			kill := time.AfterFunc(time.Duration(at)*time.Millisecond, func() { c.Process.Kill() })
			defer kill.Stop()
			at = 0 // once
		}
		if err == nil {
			err = c.Wait()
		}
		out := buf.Bytes()
		if err != nil && !killed(err) {
			return fmt.Errorf("bh %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if killed(err) {
			return errKilled
		}
		return nil
	}
	// Each step runs again until it gets through: a killed worker is just restarted.
	kills := 0
	worker := func() {
		for i := 0; i < 5; i++ {
			err := bh("worker", "--once")
			if err == nil {
				return
			}
			kills++
			if !errors.Is(err, errKilled) {
				t.Fatalf("crash at %d %s: %v", at, when, err)
			}
		}
		t.Fatalf("crash at %d %s: the worker never got through", at, when)
	}
	worker()
	c := taskID(t, dir, "Ask C")
	if err := bh("respond", c, "go"); err != nil {
		t.Fatal(err)
	}
	worker()
	if at > 0 && when != "random" && kills != 1 {
		t.Errorf("the worker was killed %d times, want once", kills)
	}
	b, _ := os.ReadFile(filepath.Join(crashDir, "count"))
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n, dir
}

var errKilled = errors.New("killed")

func killed(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.ExitCode() == -1
}

func TestCrashPoints(t *testing.T) {
	e := newCrashEnv(t)
	n, clean := e.scenario(t, 0, "")
	want := crashState(t, clean)
	t.Logf("the state every crash must end in:\n%s", want)
	t.Logf("the scenario runs %d git commands: %d crash points", n, 2*n)
	var mu sync.Mutex
	covered := 0
	for _, when := range []string{"before", "after"} {
		for at := 1; at <= n; at++ {
			// -short's one point in ten is before and after a git command
			// in turns: one in twenty of each.
			if !fakeapi.Sampled(at) || testing.Short() && (at/10%2 == 1) != (when == "after") {
				continue
			}
			t.Run(fmt.Sprintf("%s-%d", when, at), func(t *testing.T) {
				t.Parallel()
				_, dir := e.scenario(t, at, when)
				if got := crashState(t, dir); got != want {
					t.Errorf("after a crash %s git command %d:\n%s\nwant (no crash):\n%s", when, at, got, want)
				}
				mu.Lock()
				covered++
				mu.Unlock()
			})
		}
	}
	// And at random moments, git or not: a worker killed at any instant.
	for i := range 8 {
		if !fakeapi.Sampled(i + 1) {
			continue
		}
		ms := 20 + rand.IntN(600)
		t.Run(fmt.Sprintf("random-%d-%dms", i, ms), func(t *testing.T) {
			t.Parallel()
			if _, dir := e.scenario(t, ms, "random"); crashState(t, dir) != want {
				t.Errorf("after a kill %d ms into the worker:\n%s\nwant:\n%s", ms, crashState(t, dir), want)
			}
		})
	}
	t.Cleanup(func() { t.Logf("crash points covered: %d of %d, and kills at random times", covered, 2*n) })
}

// crashState sums up everything that must not depend on a crash: the
// tasks' states, the commits on main and what each holds, the user's
// files and git status, and what bh leaves behind (worktrees, refs,
// journals).
func crashState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for _, title := range []string{"Write A", "Break B", "Ask C"} {
		tk := bhE2E.Task(t, dir, taskID(t, dir, title))
		fmt.Fprintf(&b, "%s: %s\n", title, tk.State)
	}
	for _, c := range strings.Split(e2e.Git(t, dir, "log", "--format=%H %s"), "\n") {
		hash, subject, _ := strings.Cut(c, " ")
		files := strings.ReplaceAll(e2e.Git(t, dir, "show", "--name-only", "--format=", hash), "\n", " ")
		fmt.Fprintf(&b, "commit %q: %s\n", subject, files)
	}
	for _, f := range []string{"src.txt", "notes.txt", "staged.txt", "README.md"} {
		data, _ := os.ReadFile(filepath.Join(dir, f))
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s %s\n", f, hex.EncodeToString(sum[:6]))
	}
	var status []string
	for _, l := range strings.Split(e2e.Git(t, dir, "status", "--porcelain"), "\n") {
		if !strings.Contains(l, ".bh/") {
			status = append(status, l)
		}
	}
	fmt.Fprintf(&b, "status: %q\n", status)
	fmt.Fprintf(&b, "staged: %q\n", e2e.Git(t, dir, "diff", "--cached", "--name-only"))
	fmt.Fprintf(&b, "worktrees: %d\n", strings.Count(e2e.Git(t, dir, "worktree", "list", "--porcelain"), "worktree "))
	fmt.Fprintf(&b, "bh refs: %q\n", e2e.Git(t, dir, "for-each-ref", "--format=%(refname)", "refs/bh/", "refs/heads/bh/"))
	journals, _ := filepath.Glob(filepath.Join(dir, ".git", "bh", "runs", "*", "journal.json"))
	fmt.Fprintf(&b, "journals: %d\n", len(journals))
	return b.String()
}
