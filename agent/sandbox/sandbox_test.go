package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/agent/sandbox/egress"
)

func TestFilterEnv(t *testing.T) {
	env := []string{"PATH=/bin", "HOME=/h", "LC_ALL=C", "GITHUB_TOKEN=x", "AWS_SECRET_ACCESS_KEY=y", "ANTHROPIC_API_KEY=k",
		"BH_TASK_ID=tm-1", "LCX=1", "MY_VAR=1"}
	got := FilterEnv(env, append(slices.Clone(DefaultEnv), "MY_VAR"))
	want := []string{"PATH=/bin", "HOME=/h", "LC_ALL=C", "ANTHROPIC_API_KEY=k", "BH_TASK_ID=tm-1", "MY_VAR=1"}
	if !slices.Equal(got, want) {
		t.Errorf("FilterEnv = %q, want %q", got, want)
	}
}

// TestArgsMountOrder: a folder hidden inside a readable one stays hidden,
// and a writable one inside a hidden one is there, whatever the order
// of the policy's lists.
func TestArgsMountOrder(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"home/.ssh", "home/.claude", "repo/.git"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	p := func(s string) string { return filepath.Join(root, s) }
	b := Bwrap{Path: "bwrap", Policy: Policy{Hidden: []string{p("home/.ssh"), p("repo")}, Readable: []string{p("repo/.git"), p("home")},
		Writable: []string{p("home/.claude")}}}
	args := strings.Join(b.Args(proc.Launch{Dir: p("repo")}), " ")
	order := []string{"--ro-bind-try " + p("home"), "--tmpfs " + p("home/.ssh"), "--bind-try " + p("home/.claude"),
		"--remount-ro " + p("home/.ssh")}
	last := -1
	for _, o := range order {
		i := strings.Index(args, o)
		if i < last {
			t.Fatalf("%q comes too early in %s", o, args)
		}
		last = i
	}
	if !strings.Contains(args, "--tmpfs "+p("repo")+" ") || strings.Index(args, "--tmpfs "+p("repo")+" ") > strings.Index(args, "--ro-bind-try "+p("repo/.git")) {
		t.Errorf("the repository's git dir is not put back inside the hidden tree: %s", args)
	}
	if !strings.Contains(args, "--unshare-net") {
		t.Errorf("no network namespace of its own: %s", args)
	}
}

// BenchmarkSandboxStart is what the sandbox adds to starting a process:
// /bin/true plainly; inside bubblewrap under a policy like a run's on
// the host's network (as before the sandbox had a network of its own),
// in a network namespace with no way out (network: false), the same in
// a control group of its own with memory and processes capped, and with
// the way out: bh's proxy started and stopped, and the bridge (this
// test binary, as bh) between bubblewrap and the child.
func BenchmarkSandboxStart(b *testing.B) {
	st := Detect()
	home, _ := os.UserHomeDir()
	wt := b.TempDir()
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	launchers := map[string]proc.Launcher{"plain": nil}
	if st.Bwrap != "" {
		p := Policy{Hidden: []string{home},
			Readable: append([]string{filepath.Dir(self)}, filepath.SplitList(os.Getenv("PATH"))...),
			Writable: []string{wt}, Env: DefaultEnv}
		launchers["bwrap-hostnet"] = hostNet{Bwrap{Path: st.Bwrap, Policy: p}}
		launchers["bwrap"] = Bwrap{Path: st.Bwrap, Policy: p}
		limited := p
		limited.Limits = Limits{Memory: 1 << 30, Processes: 256}
		launchers["bwrap+limits"] = Bwrap{Path: st.Bwrap, Policy: limited}
		p.Egress = &Egress{Bridge: self, Policy: egress.Policy{API: []string{"api.anthropic.com:443"}}}
		launchers["bwrap+proxy"] = Bwrap{Path: st.Bwrap, Policy: p}
	}
	for _, name := range []string{"plain", "bwrap-hostnet", "bwrap", "bwrap+limits", "bwrap+proxy"} {
		l, ok := launchers[name]
		if !ok {
			continue
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				res, err := proc.Run(context.Background(), proc.Cmd{Argv: []string{"/bin/true"}, Dir: wt, Launcher: l})
				if err != nil || res.ExitCode != 0 {
					b.Fatalf("exit %d, %v", res.ExitCode, err)
				}
			}
		})
	}
}

// hostNet is b on the host's network.
type hostNet struct{ b Bwrap }

func (h hostNet) Launch(l proc.Launch) (proc.Launch, error) {
	l, err := h.b.Launch(l)
	l.Argv = slices.DeleteFunc(l.Argv, func(a string) bool { return a == "--unshare-net" })
	return l, err
}

// TestTmpIsCapped: the private /tmp lives in memory, so it has a size, and
// a write past it fails in the sandbox rather than filling the machine.
func TestTmpIsCapped(t *testing.T) {
	st := Detect()
	if st.Bwrap == "" {
		t.Skip(st.Why)
	}
	if !takesSize(st.Bwrap) {
		t.Skip("this bwrap takes no --size")
	}
	b := Bwrap{Path: st.Bwrap, Policy: Policy{TmpSize: 1 << 20, Env: DefaultEnv}}
	l, err := b.Launch(proc.Launch{Argv: []string{"sh", "-c", "head -c 2097152 /dev/zero >/tmp/fill"}, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(l.Argv, " "), "--size 1048576 --tmpfs /tmp") {
		t.Errorf("no cap on /tmp: %q", l.Argv)
	}
	c := exec.Command(l.Argv[0], l.Argv[1:]...)
	c.ExtraFiles = l.Files // the seccomp filter
	out, err := c.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "No space left") {
		t.Errorf("2 MiB into a 1 MiB /tmp: %v, %s", err, out)
	}
}
