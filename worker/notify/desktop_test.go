package notify

import (
	"github.com/bh-tracker/bh/task"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task/config"
)

// fakeDesktop puts a program called name on a PATH of its own that records
// its arguments, one a line, in the returned file, or fails when fail is set.
func fakeDesktop(t *testing.T, name string, fail bool) string {
	dir := t.TempDir()
	out := filepath.Join(dir, "args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '" + out + "'\n"
	if fail {
		script += "echo 'cannot open display' >&2\nexit 1\n"
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	return out
}

var onDesktop = config.NotifyConfig{Events: []string{task.EventInputRequested}, Desktop: true}

// startOn is start with the desktop target on goos.
func startOn(t *testing.T, goos string) (*Notifier, *logRec) {
	n, l := start(t, fast, onDesktop)
	n.sinks[0].deliver = (&desktop{goos: goos, timeout: DefaultTimeout, logf: n.logf}).deliver
	return n, l
}

var asked = Event{Name: task.EventInputRequested, TaskID: "tm-3", Title: "Add login", Question: "OAuth?", QuestionID: "q1",
	Choices: []string{"yes", "no"}, Repo: "shop", URL: "http://127.0.0.1:7070/r/shop-1/t/tm-3"}

func TestDesktop(t *testing.T) {
	for _, tc := range []struct{ goos, bin, want string }{
		{"linux", "notify-send", "--app-name=bh\n--urgency=critical\n--\n"},
		{"darwin", "osascript", strings.Join(showArgv, "\n") + "\n"},
	} {
		t.Run(tc.goos, func(t *testing.T) {
			out := fakeDesktop(t, tc.bin, false)
			n, l := startOn(t, tc.goos)
			n.Send(asked)
			n.Send(Event{Name: task.EventTaskCompleted, TaskID: "tm-3"}) // not listed
			closeNow(t, n)
			want := tc.want + "bh: tm-3 input requested in shop\nAdd login\nOAuth?\nChoices: yes · no\n" + asked.URL + "\n"
			if got := readFile(t, out); got != want {
				t.Errorf("%s got\n%s\nwant\n%s", tc.bin, got, want)
			}
			if s := l.all(); s != "" {
				t.Errorf("unexpected log: %s", s)
			}
		})
	}
}

// The question is the agent's text: whatever it holds, it reaches the
// program as one argument, after the options and outside the script.
func TestDesktopHostileText(t *testing.T) {
	hostile := "-u low\" with title \"x\"\ndo shell script \"touch /tmp/pwned\" --\n'; end run"
	e := asked
	e.Title, e.Question = "--help", hostile
	for _, goos := range []string{"linux", "darwin"} {
		bin, args := desktopCommand(goos, e)
		n := len(args)
		if !strings.Contains(args[n-1], hostile) || strings.Contains(strings.Join(args[:n-1], "\n"), "pwned") {
			t.Errorf("%s: the question is not the last argument alone: %q", bin, args)
		}
		switch goos {
		case "darwin":
			if !slices.Equal(args[:len(showArgv)], showArgv) || n != len(showArgv)+2 || !strings.HasPrefix(args[n-2], "bh:") {
				t.Errorf("osascript %q: want the fixed script, then the title (starting bh:) and the body", args)
			}
		default:
			if args[n-3] != "--" {
				t.Errorf("notify-send %q: want -- before the texts", args)
			}
		}
	}
}

func TestDesktopFailureIsLogged(t *testing.T) {
	fakeDesktop(t, "notify-send", true)
	n, l := startOn(t, "linux")
	n.Send(Event{Name: task.EventInputRequested, TaskID: "tm-3"})
	closeNow(t, n)
	if s := l.all(); !strings.Contains(s, "notify: desktop: input.requested for tm-3: notify-send: exit status 1: cannot open display") {
		t.Errorf("failure not logged: %q", s)
	}
}

func TestDesktopWithoutItsProgram(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	n, l := startOn(t, "darwin")
	n.Send(Event{Name: task.EventInputRequested, TaskID: "tm-1"})
	n.Send(Event{Name: task.EventInputRequested, TaskID: "tm-2"})
	closeNow(t, n)
	if s := l.all(); s != "notify: desktop: osascript not found on PATH; desktop notifications are off" {
		t.Errorf("want one line saying osascript is missing, got %q", s)
	}
}
