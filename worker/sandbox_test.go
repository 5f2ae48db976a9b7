package worker

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/sandbox"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// needBwrap skips where bubblewrap cannot run, except in CI, which must
// have it (apt install bubblewrap).
func needBwrap(t *testing.T) {
	t.Helper()
	if st := sandbox.Detect(); st.Bwrap == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs bubblewrap: %s", st.Why)
		}
		t.Skip(st.Why)
	}
}

// probeScript is a command agent that tries, one by one, what a sandbox
// must refuse, writes down in probe.txt in its worktree what worked, and
// completes. Nothing stops it at the first refusal.
const probeScript = `r=probe.txt
try() { name=$1; shift; if "$@" >/dev/null 2>&1; then echo "$name: yes" >>$r; else echo "$name: no" >>$r; fi; }
try "read ssh key" cat "$HOME/.ssh/id_ed25519"
try "secret env" test -n "${SECRET_TOKEN:-}"
try "write home" sh -c 'echo x >"$HOME/pwned"'
try "write main tree" sh -c 'echo x >%[1]s/pwned'
try "write other repo" sh -c 'echo x >%[2]s/pwned'
try "git push" git push %[3]s HEAD:refs/heads/pwned
try "see worker" kill -0 %[4]d
if [ "$PROBE_KILL" = 1 ]; then kill -TERM %[4]d 2>/dev/null; fi
try "connect" bash -c 'exec 3<>/dev/tcp/127.0.0.1/%[5]d'
try "go test" sh -c '%[6]s'
echo written >work.txt
echo '{"status":"completed","summary":"probed"}'
`

func TestSandboxRefusesWhatIsNotTheAgents(t *testing.T) {
	needBwrap(t)
	s := newStore(t)
	home := t.TempDir()
	writeFile(t, home, ".ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\n")
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
		goBin+" test -count=1 ./...")
	opt := Options{Env: []string{"HOME=" + home, "SECRET_TOKEN=hunter2", "GOCACHE=" + gocache, "GOFLAGS=", "PROBE_KILL=0"}}

	for _, tt := range []struct {
		name    string
		sandbox config.SandboxConfig
		kill    string
		want    string // the lines of probe.txt
		record  string // the run's sandbox, as its history records it
	}{
		// Unsandboxed, every probe works (but the kill): each can tell.
		{"off", config.SandboxConfig{Mode: task.SandboxOff}, "0", "read ssh key: yes\nsecret env: yes\nwrite home: yes\n" +
			"write main tree: yes\nwrite other repo: yes\ngit push: yes\nsee worker: yes\nconnect: yes\ngo test: yes\n",
			"none (sandbox: off in .bh/config.yaml)"},
		{"sandboxed", config.SandboxConfig{}, "1", "read ssh key: no\nsecret env: no\nwrite home: no\n" +
			"write main tree: no\nwrite other repo: no\ngit push: no\nsee worker: no\nconnect: no\ngo test: yes\n",
			Sandboxed},
		{"no network", config.SandboxConfig{Network: config.Network{Off: true}}, "1", "read ssh key: no\nsecret env: no\nwrite home: no\n" +
			"write main tree: no\nwrite other repo: no\ngit push: no\nsee worker: no\nconnect: no\ngo test: yes\n",
			Sandboxed},
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
			if sandboxed := tt.record == Sandboxed; sandboxed == pushed ||
				sandboxed == exists(home, "pwned") || sandboxed == exists(other, "pwned") {
				t.Errorf("pushed %v, wrote home %v, wrote the other repository %v", pushed, exists(home, "pwned"), exists(other, "pwned"))
			}
			gitT(t, remote, "update-ref", "-d", "refs/heads/pwned")
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
