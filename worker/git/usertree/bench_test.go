package usertree

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
)

// wtBenchRepo is a repository of 5,000 files in 50 folders, on main.
func wtBenchRepo(b *testing.B) *git.Repo {
	b.Helper()
	files := map[string]string{".gitignore": "*.log\n"}
	for i := 0; i < 5000; i++ {
		files[fmt.Sprintf("src/pkg%02d/file%04d.go", i%50, i)] = fmt.Sprintf("package pkg%02d\n\n// file %d\nvar x%d = %d\n", i%50, i, i, i)
	}
	return wtRepo(b, files)
}

// wtSteps times the steps of a benchmark's loop, reported per operation.
type wtSteps struct {
	names []string
	total map[string]time.Duration
	last  time.Time
}

func (s *wtSteps) start() { s.last = time.Now() }

func (s *wtSteps) done(name string) {
	if s.total == nil {
		s.total = map[string]time.Duration{}
	}
	if _, ok := s.total[name]; !ok {
		s.names = append(s.names, name)
	}
	now := time.Now()
	s.total[name] += now.Sub(s.last)
	s.last = now
}

func (s *wtSteps) report(b *testing.B) {
	for _, n := range s.names {
		b.ReportMetric(float64(s.total[n].Microseconds())/1000/float64(b.N), n+"-ms/op")
	}
}

// BenchmarkWorktreeTask5000 is what the worker does with git for one
// completed task: worktree, the agent's one file, commit, task file, land
// in the user's checked-out main, removal.
func BenchmarkWorktreeTask5000(b *testing.B) {
	r := wtBenchRepo(b)
	dir := filepath.Join(filepath.Dir(r.Root), "worktrees")
	var steps wtSteps
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		steps.start()
		id := fmt.Sprintf("tm-%d", i)
		path, task := filepath.Join(dir, id), ".bh/tasks/"+id+".yaml"
		base, err := r.BranchTip("main")
		if err != nil {
			b.Fatal(err)
		}
		wt, _, err := r.EnsureWorktree(path, "bh/"+id, base, r.Root)
		if err != nil {
			b.Fatal(err)
		}
		steps.done("ensure")
		gittest.Write(b, wt.Path, "src/task-"+id+".go", "package src\n")
		commit, err := commitWork(wt, base, id+": the work\n")
		if err != nil {
			b.Fatal(err)
		}
		steps.done("commit")
		final, err := r.WithFile(commit, task, []byte("status: done\n"))
		if err != nil {
			b.Fatal(err)
		}
		if err := Of(r).Land("main", final, task); err != nil {
			b.Fatal(err)
		}
		gittest.Write(b, r.Root, task, "status: done\n") // the worker's store write
		steps.done("land")
		if err := r.RemoveWorktree(path, "bh/"+id); err != nil {
			b.Fatal(err)
		}
		steps.done("remove")
	}
	b.StopTimer()
	steps.report(b)
}

// BenchmarkPlainGitTask5000 does the same steps with plain git commands.
func BenchmarkPlainGitTask5000(b *testing.B) {
	r := wtBenchRepo(b)
	dir := filepath.Join(filepath.Dir(r.Root), "worktrees")
	var steps wtSteps
	run := func(dir string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		steps.start()
		id := fmt.Sprintf("tm-%d", i)
		path := filepath.Join(dir, id)
		run(r.Root, "worktree", "add", "-q", "-b", "bh/"+id, path)
		steps.done("ensure")
		if err := os.WriteFile(filepath.Join(path, "src", "task-"+id+".go"), []byte("package src\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		run(path, "add", "-A")
		run(path, "commit", "-q", "-m", id+": the work")
		steps.done("commit")
		run(r.Root, "merge", "--ff-only", "-q", "bh/"+id)
		steps.done("land")
		run(r.Root, "worktree", "remove", path)
		run(r.Root, "branch", "-D", "-q", "bh/"+id)
		steps.done("remove")
	}
	b.StopTimer()
	steps.report(b)
}
