package jail

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/agent/sandbox"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

// BenchmarkSandboxGoBuild is what a run's own caches cost: go build of a
// small module, unsandboxed with the user's warm build cache, in a task's
// first sandboxed run (its caches empty: the standard library is built
// again) and in its second (its own caches warm).
func BenchmarkSandboxGoBuild(b *testing.B) {
	st := sandbox.Detect()
	if st.Bwrap == "" {
		b.Skip(st.Why)
	}
	root := b.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v %s", err, out)
	}
	s, _, err := store.Init(root)
	if err != nil {
		b.Fatal(err)
	}
	s.Config.Sandbox.Network.Off = true
	wt := b.TempDir()
	os.WriteFile(filepath.Join(wt, "go.mod"), []byte("module bench\n\ngo 1.21\n"), 0o644)
	os.WriteFile(filepath.Join(wt, "main.go"), []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hi\") }\n"), 0o644)
	j := &Jail{Store: s, CommonDir: filepath.Join(root, ".git"), Worktrees: b.TempDir(), Warnf: b.Logf}
	cfg := config.AgentConfig{Kind: "command", Command: []string{"go"}}
	build := func(b *testing.B, id string) {
		var l proc.Launcher
		if id != "" {
			p, err := j.Policy(&task.Task{ID: id}, wt, wt, cfg)
			if err != nil {
				b.Fatal(err)
			}
			l = sandbox.Bwrap{Path: st.Bwrap, Policy: p}
		}
		res, err := proc.Run(context.Background(), proc.Cmd{Argv: []string{"go", "build", "-o", "/tmp/bench-app", "."}, Dir: wt,
			Launcher: l, Stderr: os.Stderr})
		if err != nil || res.ExitCode != 0 {
			b.Fatalf("go build: exit %d, %v", res.ExitCode, err)
		}
	}
	b.Run("unsandboxed", func(b *testing.B) {
		for b.Loop() {
			build(b, "")
		}
	})
	n := 0
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			n++
			build(b, fmt.Sprintf("tm-first%d", n))
		}
	})
	b.Run("second", func(b *testing.B) {
		build(b, "tm-second")
		for b.Loop() {
			build(b, "tm-second")
		}
	})
}
