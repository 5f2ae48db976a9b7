package worker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/doctor"

	"github.com/bh-tracker/bh/worker/jail"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// taskState makes task id's agent state, outbox and own folder (its
// caches, with a Go module cache's read-only folders) as a run leaves
// them, and returns the three folders.
func taskState(t *testing.T, s *store.Store, id string) []string {
	t.Helper()
	r, err := git.Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{filepath.Dir(jail.AgentStateDir(s.Root, r.CommonDir(), id, "claude")), jail.OutboxDir(s, r.CommonDir(), id),
		filepath.Join(jail.RunHomesOf(s, r.CommonDir()), id)}
	writeFile(t, dirs[0], "claude/.claude.json", "{}\n")
	writeFile(t, dirs[1], "asked.json", "[]\n")
	writeFile(t, dirs[2], "cache/gomod/example.com/m@v1.0.0/m.go", "package m\n")
	for _, d := range []string{"cache/gomod/example.com/m@v1.0.0", "cache/gomod/example.com"} {
		os.Chmod(filepath.Join(dirs[2], d), 0o555)
	}
	return dirs
}

// A task that closes through its run's ending takes its agent state and
// outbox with it; a task that waits for an answer keeps them, and the
// closed task's run log (what bh transcript reads) stays.
func TestClosingRemovesTheAgentState(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	s := newStore(t)
	closes, waits := addTask(t, s, "closes"), addTask(t, s, "waits")
	closed, waiting := taskState(t, s, closes.ID), taskState(t, s, waits.ID)
	f := &fake{}
	for range 2 {
		f.steps = append(f.steps, func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
			if req.TaskID == waits.ID {
				return &agent.Outcome{Result: agent.Result{Status: agent.StatusNeedsInput, Summary: "asked", Question: "Which way?"}}, nil
			}
			return step(map[string]string{"a.txt": "a\n"}, done("did it"))(ctx, req)
		})
	}
	runOnce(t, s, f)
	if got := getTask(t, s, closes.ID); got.State != task.Closed {
		t.Fatalf("the task is %s: %s", got.State, got.Summary)
	}
	if got := getTask(t, s, waits.ID); got.State != task.AwaitingInput {
		t.Fatalf("the task is %s: %s", got.State, got.Summary)
	}
	for _, dir := range closed {
		if exists(dir, "") {
			t.Errorf("the closed task's %s is still there", dir)
		}
	}
	for _, dir := range waiting {
		if !exists(dir, "") {
			t.Errorf("the waiting task's %s is gone", dir)
		}
	}
	if !exists(store.RunDir(s, closes.ID), "") {
		t.Errorf("the closed task's run log is gone")
	}
}

// bh doctor notes the agent states and outboxes of closed and deleted
// tasks, --fix removes them, and those of open tasks stay.
func TestDoctorRemovesStateOfClosedTasks(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	s := doctorStore(t)
	open, closed := addTask(t, s, "open"), addTask(t, s, "closed")
	update(t, s, closed.ID, func(tk *task.Task) { tk.State = task.Closed })
	kept := taskState(t, s, open.ID)
	stale := append(taskState(t, s, closed.ID), taskState(t, s, "tm-gone")...)

	rep := doctorT(t, s, false)
	if rep.Problems() != 0 {
		t.Errorf("leftover state is counted as a problem: %+v", rep.Findings)
	}
	for _, dir := range []string{filepath.Dir(stale[0]), filepath.Dir(stale[1]), filepath.Dir(stale[2])} {
		f := finding(t, rep, "state", dir)
		if !f.Fixable || !strings.Contains(f.Message, closed.ID) || !strings.Contains(f.Message, "tm-gone") || strings.Contains(f.Message, open.ID) {
			t.Errorf("state finding: %+v", f)
		}
	}
	for _, dir := range stale {
		if !exists(dir, "") {
			t.Fatalf("bh doctor without --fix removed %s", dir)
		}
	}
	rep = doctorT(t, s, true)
	if f := finding(t, rep, "state", filepath.Dir(stale[0])); f.Status != doctor.Fixed {
		t.Errorf("not fixed: %+v", f)
	}
	for _, dir := range stale {
		if exists(dir, "") {
			t.Errorf("%s is still there", dir)
		}
	}
	for _, dir := range kept {
		if !exists(dir, "") {
			t.Errorf("the open task's %s is gone", dir)
		}
	}
	if f := finding(t, doctorT(t, s, false), "state", ""); f.Status != doctor.OK {
		t.Errorf("after --fix: %+v", f)
	}
}
