package notify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// fakeNotifySend puts a notify-send on a PATH of its own that records its
// arguments, one a line, in the returned file, or fails when fail is set.
func fakeNotifySend(t *testing.T, fail bool) string {
	dir := t.TempDir()
	out := filepath.Join(dir, "args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '" + out + "'\n"
	if fail {
		script += "echo 'cannot open display' >&2\nexit 1\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	return out
}

var onDesktop = task.NotifyConfig{Events: []string{EventInputRequested}, Desktop: true}

func TestDesktop(t *testing.T) {
	out := fakeNotifySend(t, false)
	n, l := start(t, fast, onDesktop)
	n.Send(Event{Name: EventInputRequested, TaskID: "tm-3", Title: "Add login", Question: "OAuth?"})
	n.Send(Event{Name: EventTaskCompleted, TaskID: "tm-3"}) // not listed
	closeNow(t, n)
	want := "--app-name=bh\n--urgency=critical\nbh: tm-3 input requested\nAdd login\nOAuth?\n"
	if got := readFile(t, out); got != want {
		t.Errorf("notify-send got\n%s\nwant\n%s", got, want)
	}
	if s := l.all(); s != "" {
		t.Errorf("unexpected log: %s", s)
	}
}

func TestDesktopFailureIsLogged(t *testing.T) {
	fakeNotifySend(t, true)
	n, l := start(t, fast, onDesktop)
	n.Send(Event{Name: EventInputRequested, TaskID: "tm-3"})
	closeNow(t, n)
	if s := l.all(); !strings.Contains(s, "notify: desktop: input.requested for tm-3: notify-send: exit status 1: cannot open display") {
		t.Errorf("failure not logged: %q", s)
	}
}

func TestDesktopWithoutNotifySend(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	n, l := start(t, fast, onDesktop)
	n.Send(Event{Name: EventInputRequested, TaskID: "tm-1"})
	n.Send(Event{Name: EventInputRequested, TaskID: "tm-2"})
	closeNow(t, n)
	if s := l.all(); s != "notify: desktop: notify-send not found on PATH; desktop notifications are off" {
		t.Errorf("want one line saying notify-send is missing, got %q", s)
	}
}
