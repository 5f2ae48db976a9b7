package worker

import (
	"slices"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// A check that fails before its last round reopens the task for the agent
// and tells nobody: a target listening to every event ("*") hears only
// named events (issue 41: it once got event "", an ntfy title with a
// double space, tags [""] and an empty BH_EVENT).
func TestCheckFailingBeforeItsLastRoundSendsNoNamelessEvent(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	h := newHook(t)
	s.Config.Notify = []config.NotifyConfig{h.config()}
	s.Config.Checks = []string{fixedCheck}
	tk := addTask(t, s, "Fixes file.txt")
	f := &fake{steps: []stepFn{
		step(map[string]string{"file.txt": "broken\n"}, done("wrote it")),
		step(map[string]string{"file.txt": "fixed\n"}, done("fixed it")),
	}}
	runWith(t, s, Options{Runner: f})
	if got := getTask(t, s, tk.ID); got.State != task.Closed || len(checkEvents(got)) != 2 {
		t.Fatalf("state %s, checks %+v: want a failing round, then a passing one, landed", got.State, checkEvents(got))
	}
	names := h.names(tk.ID)
	if slices.Contains(names, "") || !slices.Contains(names, task.EventTaskCompleted) {
		t.Errorf("notifications %q: want every one named, task.completed among them", names)
	}
}
