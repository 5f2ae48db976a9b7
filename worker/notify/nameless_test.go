package notify

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// An event without a name is no event: "*" does not want it, and Send
// drops it, so that no target gets event "" (an ending that tells nobody
// has Notify "").
func TestNamelessEventGoesNowhere(t *testing.T) {
	out := filepath.Join(t.TempDir(), "got")
	n, err := New([]config.NotifyConfig{{Events: []string{task.AllEvents}, Command: `echo "[$BH_EVENT]" >> '` + out + `'`}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n.Wants("") || !n.Wants(task.EventTaskCompleted) {
		t.Errorf(`Wants("") = %v, Wants(task.completed) = %v`, n.Wants(""), n.Wants(task.EventTaskCompleted))
	}
	n.Send(Event{TaskID: "tm-1"})
	n.Send(Event{Name: task.EventTaskCompleted, TaskID: "tm-1"})
	if err := n.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(out); string(b) != "[task.completed]\n" {
		t.Errorf("the command ran for %q", b)
	}
}
