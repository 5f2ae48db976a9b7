package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/proc"
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
		Writable: []string{p("home/.claude")}, Network: true}}
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
	if strings.Contains(args, "--unshare-net") {
		t.Errorf("network on, yet --unshare-net: %s", args)
	}
	b.Policy.Network = false
	if args := b.Args(proc.Launch{}); !slices.Contains(args, "--unshare-net") {
		t.Errorf("network off, no --unshare-net: %s", args)
	}
}

// BenchmarkSandboxStart is what the sandbox adds to starting a process:
// /bin/true plainly and inside bubblewrap under a policy like a run's.
func BenchmarkSandboxStart(b *testing.B) {
	st := Detect()
	home, _ := os.UserHomeDir()
	wt := b.TempDir()
	launchers := map[string]proc.Launcher{"plain": nil}
	if st.Bwrap != "" {
		launchers["bwrap"] = Bwrap{Path: st.Bwrap, Policy: Policy{Hidden: expandAll(DefaultHidden, home),
			Readable: append([]string{home}, filepath.SplitList(os.Getenv("PATH"))...), Writable: []string{wt},
			Env: DefaultEnv, Network: true}}
	}
	for _, name := range []string{"plain", "bwrap"} {
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

func expandAll(ps []string, home string) []string {
	var out []string
	for _, p := range ps {
		out = append(out, Expand(p, home, "/"))
	}
	return out
}
