package worker

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/doctor"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/usertree"
	"github.com/bh-tracker/bh/worker/storegit"
)

// runDoctor is bh doctor in s's repository.
func runDoctor(s *store.Store, fix bool) (doctor.Report, error) {
	if a := s.Config.Agent; a.Kind == "" && a.Binary == "" && len(a.Command) == 0 {
		// claude, the default, is not installed for these tests, and
		// doctor would say so (bh worker would not start): a command
		// agent stands in, as the worker's tests' runners do.
		s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"true"}}
	}
	w, err := ForDoctor(s)
	if err != nil {
		return doctor.Report{}, err
	}
	return doctor.Run(s, w, fix)
}

// doctorT runs runDoctor and fails the test on its error.
func doctorT(t *testing.T, s *store.Store, fix bool) doctor.Report {
	t.Helper()
	rep, err := runDoctor(s, fix)
	if err != nil {
		t.Fatalf("doctor: %v", err)
	}
	return rep
}

// finding is the one finding of check about subject, or fails the test.
func finding(t *testing.T, rep doctor.Report, check, subject string) doctor.Finding {
	t.Helper()
	for _, f := range rep.Findings {
		if f.Check == check && f.Subject == subject {
			return f
		}
	}
	t.Fatalf("no %s finding about %s in %+v", check, subject, rep.Findings)
	return doctor.Finding{}
}

// doctorStore is newStore as bh init leaves it: git knows bh's merge driver.
func doctorStore(t *testing.T) *store.Store {
	s := newStore(t)
	if err := storegit.RegisterMergeDriver(s.Root); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDoctorHealthy(t *testing.T) {
	t.Parallel()
	s := newStore(t) // store.Init alone: no merge driver yet
	addTask(t, s, "Fine")
	f := finding(t, doctorT(t, s, false), "remote", "merge.bh-task")
	if f.Status != doctor.Error || !f.Fixable {
		t.Fatalf("no merge driver: %+v", f)
	}
	doctorT(t, s, true)
	rep := doctorT(t, s, false)
	if rep.Problems() != 0 || len(rep.Findings) == 0 {
		t.Fatalf("after --fix: %+v", rep.Findings)
	}
	if out := gitT(t, s.Root, "config", "merge.bh-task.driver"); out != "bh merge-file %O %A %B %P" {
		t.Fatalf("merge driver: %q", out)
	}
}

// deadPID is the id of a process that has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestDoctorRecoversADeadWorkersTask(t *testing.T) {
	t.Parallel()
	s := doctorStore(t)
	dead := addTask(t, s, "Its worker died")
	hand := addTask(t, s, "Claimed by hand")
	other := addTask(t, s, "Untouched")
	writeFile(t, s.Root, "mine.txt", "the user's\n")
	lease := claims.WorkerLease("worker", now(s))
	lease.PID = deadPID(t)
	if _, err := claims.Claim(s, dead.ID, lease, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := claims.Claim(s, hand.ID, claims.HandLease(now(s)), nil); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, s.Root, ".bh/tasks/"+other.ID+".yaml")

	rep := doctorT(t, s, false)
	if f := finding(t, rep, "leases", dead.ID); f.Status != doctor.Error || !f.Fixable {
		t.Fatalf("dead lease: %+v", f)
	}
	if f := finding(t, rep, "leases", hand.ID); f.Status != doctor.OK {
		t.Fatalf("a hand claim is only reported: %+v", f)
	}
	if got := getTask(t, s, dead.ID); got.State != task.InProgress {
		t.Fatalf("without --fix the task moved: %s", got.State)
	}

	rep = doctorT(t, s, true)
	if f := finding(t, rep, "leases", dead.ID); f.Status != doctor.Fixed {
		t.Fatalf("after --fix: %+v", f)
	}
	if got := getTask(t, s, dead.ID); got.State != task.Open || got.Lease != nil {
		t.Fatalf("recovered task: %s %+v", got.State, got.Lease)
	}
	if got := getTask(t, s, hand.ID); got.State != task.InProgress || got.Lease.Worker != claims.HandWorker {
		t.Fatalf("the hand claim was touched: %s %+v", got.State, got.Lease)
	}
	if readFile(t, s.Root, ".bh/tasks/"+other.ID+".yaml") != before || readFile(t, s.Root, "mine.txt") != "the user's\n" {
		t.Fatal("doctor --fix changed what it had no business with")
	}
	if rep := doctorT(t, s, false); rep.Problems() != 0 {
		t.Fatalf("still: %+v", rep.Findings)
	}
}

func TestDoctorLeavesAWorkersTasksToIt(t *testing.T) {
	t.Parallel()
	s := doctorStore(t)
	tk := addTask(t, s, "Its worker died")
	lease := claims.WorkerLease("worker", now(s))
	lease.PID = deadPID(t)
	if _, err := claims.Claim(s, tk.ID, lease, nil); err != nil {
		t.Fatal(err)
	}
	unlock, err := claims.LockWorker(s.Local(), now(s)) // a worker runs here
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	f := finding(t, doctorT(t, s, true), "leases", tk.ID)
	if f.Status != doctor.Error || f.Fixable {
		t.Fatalf("with a worker running: %+v", f)
	}
	if got := getTask(t, s, tk.ID); got.State != task.InProgress {
		t.Fatalf("the task moved under a running worker: %s", got.State)
	}
}

func TestDoctorNeverRewritesBrokenFilesOrCycles(t *testing.T) {
	t.Parallel()
	s := doctorStore(t)
	a := addTask(t, s, "A")
	b := addTask(t, s, "B", a.ID)
	if _, err := s.Update(a.ID, func(t *task.Task) error { t.DependsOn = []string{b.ID}; return nil }); err != nil {
		t.Fatal(err)
	}
	writeFile(t, s.Root, ".bh/tasks/tm-bad1.yaml", "id: tm-bad1\ntitle: Bad\nstate: sleeping\n")
	rep := doctorT(t, s, true)
	if f := finding(t, rep, "store", ".bh/tasks/tm-bad1.yaml"); f.Status != doctor.Error || f.Fixable {
		t.Fatalf("malformed file: %+v", f)
	}
	if f := finding(t, rep, "store", min(a.ID, b.ID)); f.Status != doctor.Warn {
		t.Fatalf("cycle: %+v", f)
	}
	if readFile(t, s.Root, ".bh/tasks/tm-bad1.yaml") != "id: tm-bad1\ntitle: Bad\nstate: sleeping\n" {
		t.Fatal("the broken file was rewritten")
	}
}

func TestDoctorRemovesStrayLocksAndTemp(t *testing.T) {
	t.Parallel()
	s := doctorStore(t)
	tk := addTask(t, s, "Has a lock")
	old := time.Now().Add(-2 * time.Minute)
	for _, p := range []string{s.Local("locks/tm-gone.lock"), s.Local("locks/" + tk.ID + ".lock"), filepath.Join(s.Dir, "tmp/write-123"), s.Local("cache/.tasks.bin.99")} {
		writeFile(t, filepath.Dir(p), filepath.Base(p), "")
		os.Chtimes(p, old, old)
	}
	rep := doctorT(t, s, false)
	finding(t, rep, "locks", ".git/bh/locks/tm-gone.lock")
	finding(t, rep, "locks", ".bh/tmp")
	finding(t, rep, "locks", ".git/bh/cache") // the list cache's temp file
	if rep.Problems() != 3 {
		t.Fatalf("a live task's lock is no problem: %+v", rep.Findings)
	}
	if rep := doctorT(t, s, true); rep.Problems() != 0 {
		t.Fatalf("after --fix: %+v", rep.Findings)
	}
	if exists(s.Local(), "locks/tm-gone.lock") || exists(s.Dir, "tmp/write-123") || exists(s.Local(), "cache/.tasks.bin.99") ||
		!exists(s.Local(), "locks/"+tk.ID+".lock") {
		t.Fatal("the wrong files went")
	}
}

// A landing killed while it held the user's index leaves index.lock: once
// stale, doctor --fix undoes the landing (the user's files as they were)
// rather than only removing the lock under files that moved.
func TestDoctorUndoesALandingKilledHoldingTheIndex(t *testing.T) {
	t.Parallel()
	s := doctorStore(t)
	base := gitT(t, s.Root, "rev-parse", "HEAD")
	writeFile(t, s.Root, "task.txt", "the task's\n") // the task's commit, made without the user's tree
	gitT(t, s.Root, "add", "task.txt")
	landed := gitT(t, s.Root, "commit-tree", "-p", base, "-m", "a task", gitT(t, s.Root, "write-tree"))
	gitT(t, s.Root, "rm", "-q", "--cached", "task.txt")
	os.Remove(filepath.Join(s.Root, "task.txt"))
	status := gitT(t, s.Root, "status", "--porcelain")
	r, err := git.Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	r.Hooks.Before = func(dir string, args []string) {
		if slices.Contains(args, "update-ref") {
			runtime.Goexit() // the kill, with the files moved and the branch not
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		usertree.Of(r).Land(gitT(t, s.Root, "symbolic-ref", "--short", "HEAD"), landed, "")
	}()
	<-done
	lock := filepath.Join(s.Root, ".git", "index.lock")
	old := time.Now().Add(-2 * git.StaleAge)
	if err := os.Chtimes(lock, old, old); err != nil {
		t.Fatalf("no index.lock held: %v", err)
	}
	finding(t, doctorT(t, s, false), "locks", ".git/index.lock")
	doctorT(t, s, true)
	if exists(s.Root, ".git/index.lock") || exists(s.Root, "task.txt") {
		t.Error("after --fix the lock or the landed file is still there")
	}
	if got := gitT(t, s.Root, "status", "--porcelain"); got != status || gitT(t, s.Root, "rev-parse", "HEAD") != base {
		t.Errorf("after --fix the tree shows %q, want %q", got, status)
	}
}

// bh sync killed during its store commit's git write-tree: bh's hold on
// the index and the killed git's lock on bh's index copy, both stale.
// --fix lets go of both, and the next store commit goes through.
func TestDoctorUndoesAStoreCommitKilledInItsGit(t *testing.T) {
	t.Parallel()
	s := doctorStore(t)
	addTask(t, s, "Changed since the last commit")
	r, err := git.Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	treeLock := filepath.Join(s.Root, ".git", "bh-land-index-tree.lock")
	r.Hooks.Before = func(dir string, args []string) {
		if slices.Contains(args, "write-tree") {
			os.WriteFile(treeLock, nil, 0o644) // the git killed mid-command leaves it
			runtime.Goexit()
		}
	}
	done := make(chan struct{})
	go func() { defer close(done); usertree.Of(r).CommitStore(s.Dir, "bh: store") }()
	<-done
	r.Hooks.Before = nil
	old := time.Now().Add(-2 * git.StaleAge)
	for _, p := range []string{filepath.Join(s.Root, ".git", "index.lock"), treeLock} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatalf("not left behind: %v", err)
		}
	}
	for _, f := range doctorT(t, s, true).Findings {
		if f.Status == doctor.Error {
			t.Errorf("left after --fix: %+v", f)
		}
	}
	if exists(s.Root, ".git/index.lock") || exists(s.Root, ".git/bh-land-index-tree.lock") {
		t.Error("after --fix a lock is still there")
	}
	if ok, err := usertree.Of(r).CommitStore(s.Dir, "bh: store"); err != nil || !ok {
		t.Errorf("the next store commit: %v, %v", ok, err)
	}
}

// bh sync killed before its store commit's first git, while a git of
// someone else's runs in the repository: the index.lock is bh's own (its
// note says so), and --fix ends its hold all the same.
func TestDoctorEndsBhsHoldWhileAnotherGitRuns(t *testing.T) {
	t.Parallel()
	s := doctorStore(t)
	addTask(t, s, "Changed since the last commit")
	r, err := git.Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	r.Hooks.Before = func(dir string, args []string) {
		if slices.Contains(args, "add") {
			runtime.Goexit()
		}
	}
	done := make(chan struct{})
	go func() { defer close(done); usertree.Of(r).CommitStore(s.Dir, "bh: store") }()
	<-done
	r.Hooks.Before = nil
	lock := filepath.Join(s.Root, ".git", "index.lock")
	old := time.Now().Add(-2 * git.StaleAge)
	if err := os.Chtimes(lock, old, old); err != nil {
		t.Fatalf("no index.lock held: %v", err)
	}
	other := exec.Command("git", "cat-file", "--batch") // waits on its input
	other.Dir = s.Root
	in, err := other.StdinPipe()
	if err != nil || other.Start() != nil {
		t.Fatalf("another git: %v", err)
	}
	defer other.Wait()
	defer in.Close()
	finding(t, doctorT(t, s, false), "locks", "index")
	doctorT(t, s, true)
	if exists(s.Root, ".git/index.lock") {
		t.Fatal("after --fix bh's index.lock is still there")
	}
	if ok, err := usertree.Of(r).CommitStore(s.Dir, "bh: store"); err != nil || !ok {
		t.Errorf("the next store commit: %v, %v", ok, err)
	}
}
