package worker

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/jail"

	"github.com/bh-tracker/bh/agent/sandbox"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// needBwrap skips where bubblewrap cannot run, except in CI, which must
// have it (apt install bubblewrap).
func needBwrap(t *testing.T) {
	t.Helper()
	top, _, _ := strings.Cut(t.Name(), "/")
	sandboxed.Store(top, true) // its repositories on disk (storeDir)
	if st := sandbox.Detect(); st.Bwrap == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs bubblewrap: %s", st.Why)
		}
		t.Skip(st.Why)
	}
}

// probeScript is a command agent that tries, one by one, what a sandbox
// must refuse, writes down in probe.txt in its worktree what worked, and
// completes. Nothing stops it at the first refusal. It writes another
// task's file (%[7]s, closed) and the config to switch the sandbox off,
// a claim on that task and a ref of bh's, attaches to the worker as a
// debugger would (the kernel's ptrace check: gdb, else opening its
// memory), and writes 32 MiB into /tmp.
const probeScript = `r=probe.txt
try() { name=$1; shift; if "$@" >/dev/null 2>&1; then echo "$name: yes" >>$r; else echo "$name: no" >>$r; fi; }
fill() { f=/tmp/bh-probe-fill.$$; head -c 33554432 /dev/zero >$f 2>fill.err; s=$?; rm -f $f; return $s; }
try "read ssh key" cat "$HOME/.ssh/id_ed25519"
try "read aws key" cat "$HOME/.aws/credentials"
try "secret env" test -n "${SECRET_TOKEN:-}"
try "write home" sh -c 'echo x >"$HOME/pwned"'
try "write main tree" sh -c 'echo x >%[1]s/pwned'
try "write other repo" sh -c 'echo x >%[2]s/pwned'
try "git push" git push %[3]s HEAD:refs/heads/pwned
try "see worker" kill -0 %[4]d
try "worker environ" cat /proc/%[4]d/environ
if command -v gdb >/dev/null; then try "ptrace worker" gdb -batch -nx -iex 'set auto-load off' -ex 'info proc' -p %[4]d
else try "ptrace worker" sh -c 'exec 3</proc/%[4]d/mem'; fi
try "write task file" sh -c 'echo "sandbox: off" >>%[1]s/.bh/tasks/%[7]s.yaml'
try "write config" sh -c 'echo "sandbox: off" >>%[1]s/.bh/config.yaml'
try "write claim" git update-ref refs/bh/claims/%[7]s HEAD
try "write ref file" sh -c 'git rev-parse HEAD >%[1]s/.git/refs/bh/pwned'
if [ "$PROBE_KILL" = 1 ]; then kill -TERM %[4]d 2>/dev/null; fi
try "connect" bash -c 'exec 3<>/dev/tcp/127.0.0.1/%[5]d'
try "go test" sh -c '%[6]s'
try "fill /tmp" fill
try "/tmp full" grep -q "No space left" fill.err
rm -f fill.err
echo written >work.txt
echo '{"status":"completed","summary":"probed"}'
`

func TestSandboxRefusesWhatIsNotTheAgents(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	home := t.TempDir()
	writeFile(t, home, ".ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\n")
	writeFile(t, home, ".aws/credentials", "[default]\naws_secret_access_key = hunter2\n")
	victim := update(t, s, addTask(t, s, "the human's own task").ID, func(tk *task.Task) { tk.State = task.Closed })
	bhWrote := map[string]string{} // .bh's files the probe writes, as bh wrote them
	for _, f := range []string{"tasks/" + victim.ID + ".yaml", "config.yaml"} {
		bhWrote[f] = readFile(t, s.Dir, f)
	}
	other := filepath.Join(filepath.Dir(s.Root), "other")
	gitT(t, filepath.Dir(s.Root), "init", "-q", other)
	remote := filepath.Join(t.TempDir(), "remote.git")
	gitT(t, s.Root, "init", "-q", "--bare", remote)
	// A Go module, so that the agent runs the repository's tests.
	writeFile(t, s.Root, "go.mod", "module probe\n\ngo 1.21\n")
	writeFile(t, s.Root, "probe_test.go", "package probe\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {}\n")
	gitT(t, s.Root, "add", "go.mod", "probe_test.go")
	gitT(t, s.Root, "commit", "-q", "-m", "a Go module")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	gocache := strings.TrimSpace(string(must(exec.Command(goBin, "env", "GOCACHE").Output())))
	script := fmt.Sprintf(probeScript, s.Root, other, remote, os.Getpid(), ln.Addr().(*net.TCPAddr).Port,
		goBin+" test -count=1 ./...", victim.ID)
	// What the sandbox refuses, and the run goes on: /tmp fills up at its cap.
	refused := "read ssh key: no\nread aws key: no\nsecret env: no\nwrite home: no\n" +
		"write main tree: no\nwrite other repo: no\ngit push: no\nsee worker: no\nworker environ: no\nptrace worker: no\n" +
		"write task file: no\nwrite config: no\nwrite claim: no\nwrite ref file: no\n" +
		"connect: no\ngo test: yes\nfill /tmp: no\n/tmp full: yes\n"
	opt := Options{Env: []string{"HOME=" + home, "SECRET_TOKEN=hunter2", "GOCACHE=" + gocache, "GOFLAGS=", "PROBE_KILL=0"}}

	for _, tt := range []struct {
		name    string
		sandbox config.SandboxConfig
		kill    string
		want    string // the lines of probe.txt
		record  string // the run's sandbox, as its history records it
	}{
		// Unsandboxed, every probe works (but the kill): each can tell.
		{"off", config.SandboxConfig{Mode: task.SandboxOff}, "0", "read ssh key: yes\nread aws key: yes\nsecret env: yes\nwrite home: yes\n" +
			"write main tree: yes\nwrite other repo: yes\ngit push: yes\nsee worker: yes\nworker environ: yes\nptrace worker: " + ancestorPtrace() + "\n" +
			"write task file: yes\nwrite config: yes\nwrite claim: yes\nwrite ref file: yes\n" +
			"connect: yes\ngo test: yes\nfill /tmp: yes\n/tmp full: no\n",
			"none (sandbox: off in .bh/config.yaml)"},
		{"sandboxed", config.SandboxConfig{TmpSize: "16MiB"}, "1", refused,
			jail.Sandboxed},
		{"no network", config.SandboxConfig{Network: config.Network{Off: true}, TmpSize: "16MiB"}, "1", refused,
			jail.Sandboxed},
	} {
		if testing.Short() && tt.name != "no network" {
			continue // the developers' loop: one sandboxed run
		}
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range []string{filepath.Join(home, "pwned"), filepath.Join(s.Root, "pwned"), filepath.Join(other, "pwned")} {
				os.Remove(f)
			}
			s.Config.Sandbox = tt.sandbox
			s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", script}}
			opt.Env[len(opt.Env)-1] = "PROBE_KILL=" + tt.kill
			tk := addTask(t, s, "probe "+tt.name)
			runWith(t, s, opt)
			got := getTask(t, s, tk.ID)
			if got.State != task.Closed {
				t.Fatalf("the task is %s: %s %v", got.State, got.Summary, got.Issues)
			}
			if probe := readFile(t, s.Root, "probe.txt"); probe != tt.want {
				t.Errorf("probe.txt:\n%s\nwant:\n%s", probe, tt.want)
			}
			if readFile(t, s.Root, "work.txt") != "written\n" {
				t.Errorf("the agent's own file did not land")
			}
			pushed := gitT(t, remote, "for-each-ref", "refs/heads/pwned") != ""
			if sandboxed := tt.record == jail.Sandboxed; sandboxed == pushed ||
				sandboxed == exists(home, "pwned") || sandboxed == exists(other, "pwned") {
				t.Errorf("pushed %v, wrote home %v, wrote the other repository %v", pushed, exists(home, "pwned"), exists(other, "pwned"))
			}
			gitT(t, remote, "update-ref", "-d", "refs/heads/pwned")
			// The task file and the config are as bh wrote them, and no ref of bh's is the agent's.
			refs := gitT(t, s.Root, "for-each-ref", "--format=%(refname)", "refs/bh/claims/"+victim.ID, "refs/bh/pwned")
			if tt.record == jail.Sandboxed && refs != "" {
				t.Errorf("the agent wrote refs of bh's: %s", refs)
			}
			for f, b := range bhWrote {
				if got := readFile(t, s.Dir, f); tt.record == jail.Sandboxed && got != b {
					t.Errorf(".bh/%s is not as bh wrote it:\n%s", f, got)
				}
				writeFile(t, s.Dir, f, b)
			}
			for _, ref := range strings.Fields(refs) {
				gitT(t, s.Root, "update-ref", "-d", ref)
			}
			if e, ok := lastEvent(got, task.EventRunStarted); !ok || e.Sandbox != tt.record {
				t.Errorf("the run records sandbox %q, want %q", e.Sandbox, tt.record)
			}
			os.Remove(filepath.Join(s.Root, "probe.txt"))
			gitT(t, s.Root, "rm", "-q", "probe.txt", "work.txt")
			gitT(t, s.Root, "commit", "-q", "-m", "next probe")
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// ancestorPtrace is whether an unsandboxed agent may attach to the worker,
// its ancestor: Yama's ptrace_scope 1 and 2 forbid it but to root, 3 to
// everyone.
func ancestorPtrace() string {
	b, _ := os.ReadFile("/proc/sys/kernel/yama/ptrace_scope")
	switch scope := strings.TrimSpace(string(b)); {
	case scope == "" || scope == "0", scope != "3" && os.Geteuid() == 0:
		return "yes"
	}
	return "no"
}
