package worker

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/agent/sandbox"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/git"
)

// outsideList is the programs agent/sandbox/THREATS.md says bh runs
// outside the sandbox: the first column of its table under "What bh runs
// outside the sandbox".
func outsideList(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "agent", "sandbox", "THREATS.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## What bh runs outside the sandbox\n")
	if !ok {
		t.Fatal("THREATS.md has no section \"What bh runs outside the sandbox\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var names []string
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(line, "| `") {
			continue
		}
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cells[1], -1) {
			names = append(names, m[1])
		}
	}
	if len(names) == 0 {
		t.Fatal("THREATS.md lists no program outside the sandbox")
	}
	return names
}

// TestWhatRunsOutsideTheSandbox runs whole task lives, every child bh
// starts observed (proc.Observe): a task landed by merge, one by pull
// request (the real gh against the fake GitHub) and one kept on its
// branch, then landed by bh land, each with
// worktree.setup, a check, the user's pre-commit hook and a notify
// command, the agent a command agent whose summary and files carry a
// token. Every program started outside a sandbox is one THREATS.md
// lists; every git runs with its hooks off; the notify command runs as
// the user wrote it; the agent's token is in no command line run outside;
// and the setup, the check, the hook and the agent ran inside bwrap.
func TestWhatRunsOutsideTheSandbox(t *testing.T) {
	needBwrap(t)
	s := newStore(t)
	withGitHub(t, s)
	const token = "agent-text-5bd0c1"
	hook := filepath.Join(s.Root, ".git", "hooks", "pre-commit")
	writeHook(t, s.Root, ".git/hooks/pre-commit", "#!/bin/sh\ngrep -q "+token+" work.txt\n")
	notifyLine := "true notified"
	s.Config.Notify = []config.NotifyConfig{{Events: []string{task.AllEvents}, Command: notifyLine}}
	s.Config.Worktree.Setup, s.Config.Checks = "true set up", []string{"true checked"}
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c",
		"echo " + token + " >work.txt; echo '{\"status\":\"completed\",\"summary\":\"" + token + " $(touch /tmp/x)\"}'"}}
	merged := addTask(t, s, "land by merge")
	pr, err := s.Create(&task.Task{Title: "land by pull request", Land: task.LandPR})
	if err != nil {
		t.Fatal(err)
	}
	kept, err := s.Create(&task.Task{Title: "keep on its branch", Land: task.LandBranch})
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var started [][]string
	observe := func(argv []string) { mu.Lock(); started = append(started, argv); mu.Unlock() }
	stopProcs, stopGits := proc.Observe(observe), git.Observe(observe)
	runWith(t, s, Options{Env: []string{"HOME=" + t.TempDir()}})
	if got := getTask(t, s, kept.ID); got.State != task.Closed {
		t.Fatalf("%s is %s (%s), want kept", kept.ID, got.State, lastNote(got))
	}
	if err := landTask(context.Background(), s, kept.ID, "ann", Options{Name: "bh land"}); err != nil {
		t.Fatalf("bh land %s: %v", kept.ID, err)
	}
	stopProcs()
	stopGits()

	if got := getTask(t, s, merged.ID); got.State != task.Closed || readFile(t, s.Root, "work.txt") != token+"\n" {
		t.Fatalf("%s is %s (%s), want landed", merged.ID, got.State, lastNote(got))
	}
	if got := getTask(t, s, pr.ID); got.State != task.InReview {
		t.Fatalf("%s is %s (%s), want in review", pr.ID, got.State, lastNote(got))
	}
	listed := outsideList(t)
	inside := map[string]bool{}
	for _, argv := range started {
		name := filepath.Base(argv[0])
		line := strings.Join(argv, " ")
		// bwrap started through the control group's step or prlimit (the
		// run's limits): the step is bh's fixed script, bwrap what follows.
		if i := slices.Index(argv, "--"); i > 0 && i+1 < len(argv) && filepath.Base(argv[i+1]) == "bwrap" &&
			(name == "sh" && len(argv) > 2 && argv[2] == sandbox.CgroupStep || name == "prlimit") {
			name = "bwrap"
		}
		switch {
		case !slices.Contains(listed, name):
			t.Errorf("bh ran %q outside the sandbox, which THREATS.md does not list", line)
		case name == "bwrap":
			for _, what := range []string{"true set up", "true checked", hook, token} {
				inside[what] = inside[what] || strings.Contains(line, what) && what != token
			}
			continue
		case name == "git" && (len(argv) < 3 || argv[1] != "-c" || argv[2] != "core.hooksPath="+os.DevNull):
			t.Errorf("bh's git ran with hooks on: %q", line)
		case name == "sh" && !slices.Equal(argv, []string{"sh", "-c", notifyLine}):
			t.Errorf("a shell outside the sandbox ran %q, not the user's notify command", line)
		}
		if strings.Contains(line, token) {
			t.Errorf("the agent's text is on a command line run outside the sandbox: %q", line)
		}
	}
	for _, what := range []string{"true set up", "true checked", hook} {
		if !inside[what] {
			t.Errorf("%s did not run in bwrap", what)
		}
	}
	names := map[string]int{}
	for _, argv := range started {
		names[filepath.Base(argv[0])]++
	}
	t.Logf("children started, by program: %v", names)
}

// observedStarts are the places in bh's code that start a child other
// than through proc.Run, each telling proc.Starting, or running inside a
// sandbox already.
var observedStarts = map[string]string{
	"agent/proc/proc.go":             "Run itself",
	"agent/proc/beside.go":           "Become: bh serve running bh-web in its place (proc.Starting)",
	"worker/git/exec.go":             "bh's git (git.Observe: a leaf, worker/git imports no proc)",
	"agent/sandbox/sandbox.go":       "bubblewrap's probe (proc.Starting)",
	"agent/sandbox/tmpsize.go":       "bubblewrap's --help (proc.Starting)",
	"agent/sandbox/egress/bridge.go": "bh sandbox-bridge, inside the sandbox: the agent it starts",
	"cmd/board/actions.go":           "the board's takeover: bh continue, bh itself (THREATS.md)",
}

// TestEveryChildIsObserved: no code of bh's (test helpers and the fakes
// they run aside) starts a process but through agent/proc or the few
// places above, so that TestWhatRunsOutsideTheSandbox sees every child.
func TestEveryChildIsObserved(t *testing.T) {
	root := ".."
	starters := map[string][]string{"exec": {"Command", "CommandContext"}, "os": {"StartProcess"},
		"syscall": {"Exec", "ForkExec", "StartProcess"}}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || isTestSupport(rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if ok && slices.Contains(starters[pkg.Name], sel.Sel.Name) && observedStarts[rel] == "" {
				t.Errorf("%s starts a child with %s.%s, not through agent/proc: TestWhatRunsOutsideTheSandbox cannot see it",
					rel, pkg.Name, sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range observedStarts {
		if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
			t.Errorf("observedStarts names %s: %v", rel, err)
		}
	}
}

// isTestSupport: a folder of test support only, never in bh's binary
// (the fake agents and APIs, the e2e harness, the Kubernetes test plane).
func isTestSupport(rel string) bool {
	return slices.Contains([]string{"agent/fakeapi", "cmd/internal/e2e", "worker/kube/kubetest", "worker/git/gittest"}, rel)
}
