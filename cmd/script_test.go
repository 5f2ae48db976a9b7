package cmd

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/cmd/web"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run bh as a command of its own, in a fresh
// process, as a user would.
func TestMain(m *testing.M) {
	// bh running itself by os.Executable, which is this test binary: claude
	// starting bh's MCP server (jail.MCPCommand), bh board opening bh continue.
	if e2e.SelfIsBh() {
		os.Exit(run(scriptFactory(), os.Args[1:]))
	}
	// In-process bh commands register their repositories and keep their
	// state: in a home of the tests' own, not the machine's.
	testscript.Main(isolated{m}, map[string]func(){
		"bh": func() {
			// No claude release is known to be broken: a test entry stands in.
			agent.ClaudeTested.Broken = map[string]string{"2.1.1": "a test entry"}
			os.Exit(run(scriptFactory(), os.Args[1:]))
		},
		// bh as built: no web inbox linked, so that its serve runs bh-web.
		"bh-plain": func() {
			f := scriptFactory()
			f.Inbox = nil
			os.Exit(run(f, os.Args[1:]))
		},
		"bh-web-inbox": func() { os.Exit(MainInbox(web.Inbox)) }, // bh-web's main
		"fakeagent":    func() { os.Exit(e2e.FakeAgent()) },
		"ttypush":      func() { os.Exit(e2e.TTYPush()) },
	})
}

// isolated runs the tests in a home of their own (fakeapi.Isolated).
type isolated struct{ m *testing.M }

func (i isolated) Run() int {
	// Scratch in memory under -short, which runs no real CLI: a real
	// codex's writes there were lost (its own sandbox's /dev hides it).
	if fakeapi.Overlap(4); testing.Short() {
		fakeapi.MemoryTemp()
	}
	return fakeapi.Isolated(i.m.Run)
}

// scriptFactory is the real factory, with the clock fixed by BH_NOW
// (RFC 3339) so that scripts can check "asked 2 hours ago", and the undo
// window by BH_TEST_UNDO_WINDOW.
func scriptFactory() *Factory {
	f := newFactory()
	f.Inbox = web.Inbox // bh-web's, linked here: the scripts' bh serve runs in-process
	if v := os.Getenv("BH_NOW"); v != "" {
		now, err := time.Parse(time.RFC3339, v)
		if err != nil {
			panic("BH_NOW: " + err.Error())
		}
		f.Now = func() time.Time { return now }
	}
	// BH_TEST_UNDO_WINDOW replaces bh serve's undo window, so that a test
	// running it as a subprocess (TestServeInBrowser) does not wait 10 s
	// for an approval.
	if d, err := time.ParseDuration(os.Getenv("BH_TEST_UNDO_WINDOW")); err == nil {
		f.AfterFunc = func(_ time.Duration, fn func()) func() bool { return time.AfterFunc(d, fn).Stop }
	}
	return f
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		WorkdirRoot:         t.TempDir(), // removed with the test (testscript's own root was left behind empty)
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			// git's own housekeeping after each commit, fetch and push (a
			// process or two each: a twentieth of the scripts' processes)
			// has nothing to do in repositories this small.
			conf := filepath.Join(env.WorkDir, ".gitconfig-tests")
			if err := os.WriteFile(conf, []byte(fakeapi.QuietGit), 0o644); err != nil {
				return err
			}
			env.Setenv("GIT_CONFIG_GLOBAL", conf)
			// The task worktrees live in bh's state dir: inside $WORK, not the real home.
			env.Setenv("XDG_STATE_HOME", filepath.Join(env.WorkDir, ".state"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config")) // bh's registry of repositories
			// The fake agent keeps its plans and log in $WORK, which a sandbox
			// hides: scripts run agents unsandboxed unless they say otherwise
			// (sandbox.txtar does).
			env.Setenv("BH_SANDBOX", "off")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// later NAME DURATION sets $NAME to the time DURATION from now, in
			// RFC 3339: a clock for BH_NOW that has moved on, where waiting for
			// the real one would make a test slow, or racy on a busy machine.
			"later": func(ts *testscript.TestScript, neg bool, args []string) {
				d, err := time.ParseDuration(args[len(args)-1])
				if neg || len(args) != 2 || err != nil {
					ts.Fatalf("usage: later NAME DURATION")
				}
				ts.Setenv(args[0], time.Now().Add(d).UTC().Format(time.RFC3339))
			},
			// stdout2env NAME sets $NAME to the last command's stdout, trimmed:
			// how a script learns the id bh add printed.
			"stdout2env": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: stdout2env NAME")
				}
				ts.Setenv(args[0], strings.TrimSpace(ts.ReadFile("stdout")))
			},
			// jsonget NAME FILE PATH sets $NAME to the string at PATH (keys and
			// indexes, dot-separated: 0.respond) in the JSON of FILE ("stdout"
			// is the last command's): how a script runs a command bh suggested.
			"jsonget": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 3 {
					ts.Fatalf("usage: jsonget NAME FILE PATH")
				}
				var v any
				ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[1])), &v))
				for _, k := range strings.Split(args[2], ".") {
					switch c := v.(type) {
					case map[string]any:
						v = c[k]
					case []any:
						i, err := strconv.Atoi(k)
						if err != nil || i < 0 || i >= len(c) {
							ts.Fatalf("jsonget: no %s in %s", args[2], args[1])
						}
						v = c[i]
					default:
						ts.Fatalf("jsonget: no %s in %s", args[2], args[1])
					}
				}
				s, ok := v.(string)
				if !ok {
					ts.Fatalf("jsonget: %s in %s is %v, not a string", args[2], args[1], v)
				}
				ts.Setenv(args[0], s)
			},
			// waitfile FILE REGEXP waits (up to 30 s, scaled) until FILE holds a match:
			// how a script knows a background bh log --follow printed a line.
			"waitfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: waitfile FILE REGEXP")
				}
				re := regexp.MustCompile("(?m)" + args[1])
				for deadline := time.Now().Add(fakeapi.Patience(30 * time.Second)); ; time.Sleep(20 * time.Millisecond) {
					b, _ := os.ReadFile(ts.MkAbs(args[0]))
					if re.Match(b) {
						return
					}
					if time.Now().After(deadline) {
						ts.Fatalf("%s: no match for %q in time:\n%s", args[0], args[1], b)
					}
				}
			},
			// jsonnames FILE... checks bh's JSON output against JSON.md.
			"jsonnames": jsonNamesCmd,
			// exits N command args... runs a command like exec and checks its
			// exact exit code, which ! exec cannot.
			"exits": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: exits N command [args...]")
				}
				want, err := strconv.Atoi(args[0])
				ts.Check(err)
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("%s: %v", args[1], err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
				}
			},
		},
	})
}
