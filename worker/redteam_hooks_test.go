package worker

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// husky9 is husky v9's hook runner, .husky/_/h as `husky` writes it: each
// hook in .husky/_ sources it, and it runs .husky/<hook> with
// node_modules/.bin on PATH.
const husky9 = `#!/usr/bin/env sh
[ "$HUSKY" = "2" ] && set -x
n=$(basename "$0")
s=$(dirname "$(dirname "$0")")/$n

[ ! -f "$s" ] && exit 0

i="${XDG_CONFIG_HOME:-$HOME/.config}/husky/init.sh"
[ -f "$i" ] && . "$i"

[ "${HUSKY-}" = "0" ] && exit 0

export PATH="node_modules/.bin:$PATH"
sh -e "$s" "$@"
c=$?

[ $c != 0 ] && echo "husky - $n script failed (code $c)"
[ $c = 127 ] && echo "husky - command not found in PATH=$PATH"
exit $c
`

// hookStyles are the common ways a repository runs its commit hooks,
// each installed as its user would (files committed, the hook in the
// user's hooks folder), and how a hostile agent rewrites, in its
// worktree, what the hook runs: to $PROG's body.
var hookStyles = []struct {
	name    string
	need    string // a program the style needs
	files   map[string]string
	install func(t *testing.T, root, home string)
	rewrite string // shell lines of the agent's, in its worktree
}{
	{"a script calling make", "make", map[string]string{"Makefile": "lint:\n\t@echo lint ok\n"},
		func(t *testing.T, root, _ string) {
			writeHook(t, root, ".git/hooks/pre-commit", "#!/bin/sh\nexec make -s lint\n")
		},
		`printf 'lint:\n\t@sh prog.sh\n' >Makefile`},
	{"husky with lint-staged through npx", "npx", map[string]string{".husky/pre-commit": "npx lint-staged\n",
		"package.json":                  `{"name": "app", "version": "1.0.0", "private": true}` + "\n",
		"node_modules/.bin/lint-staged": "#!/bin/sh\necho lint-staged ok\n"},
		func(t *testing.T, root, _ string) {
			writeHook(t, root, ".husky/_/h", husky9)
			writeHook(t, root, ".husky/_/pre-commit", "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n")
			writeHook(t, root, ".husky/_/commit-msg", "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n")
			gitT(t, root, "config", "core.hooksPath", ".husky/_")
		},
		`cp prog.sh node_modules/.bin/lint-staged`},
	{"the pre-commit framework with a local hook", "pre-commit", map[string]string{
		".pre-commit-config.yaml": "repos:\n  - repo: local\n    hooks:\n      - id: lint\n        name: lint\n" +
			"        entry: ./scripts/lint.sh\n        language: script\n        pass_filenames: false\n        always_run: true\n",
		"scripts/lint.sh": "#!/bin/sh\necho lint ok\n"},
		func(t *testing.T, root, home string) {
			c := exec.Command("pre-commit", "install")
			c.Dir, c.Env = root, append(os.Environ(), "HOME="+home)
			if out, err := c.CombinedOutput(); err != nil {
				t.Fatalf("pre-commit install: %v\n%s", err, out)
			}
		},
		`cp prog.sh scripts/lint.sh`},
	{"npm test", "npm", map[string]string{"package.json": `{"name": "app", "version": "1.0.0", "private": true, ` +
		`"scripts": {"test": "echo tests pass"}}` + "\n"},
		func(t *testing.T, root, _ string) {
			writeHook(t, root, ".git/hooks/pre-commit", "#!/bin/sh\nexec npm test --silent\n")
		},
		`sed -i 's/echo tests pass/sh prog.sh/' package.json`},
}

// writeHook writes an executable file under root.
func writeHook(t *testing.T, root, name, body string) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestRedteamCommitHooks: in a repository with each common commit hook
// style, a hostile command agent rewrites what the hook runs (the
// Makefile, node_modules/.bin/lint-staged, the local hook's script,
// package.json's test script) into a program that drops canaries outside
// its worktree (in the home, in the main tree) and refuses the commit
// until the work holds fixed.txt. The hook runs, sandboxed, the agent's
// program (its output is the check's): no canary appears; its refusal
// goes back to the agent with that output, and nothing lands until the
// agent's next round passes it. Outside -short, the same run with the
// sandbox off (the user's choice) proves the program would drop them.
func TestRedteamCommitHooks(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	for _, mode := range []string{"sandboxed", task.SandboxOff} {
		if mode == task.SandboxOff && testing.Short() {
			continue
		}
		for _, hs := range hookStyles {
			t.Run(mode+"/"+hs.name, func(t *testing.T) {
				if _, err := exec.LookPath(hs.need); err != nil {
					if os.Getenv("CI") != "" {
						t.Fatalf("CI needs %s: %v", hs.need, err)
					}
					t.Skip(err)
				}
				s := newStore(t)
				home := t.TempDir()
				for name, body := range hs.files {
					writeHook(t, s.Root, name, body)
				}
				gitT(t, s.Root, "add", "-A")
				gitT(t, s.Root, "commit", "-q", "-m", "the repository's hooks")
				hs.install(t, s.Root, home)
				if mode == task.SandboxOff {
					s.Config.Sandbox = config.SandboxConfig{Mode: task.SandboxOff}
				}
				canaries := []string{filepath.Join(home, "canary"), filepath.Join(s.Root, "canary")}
				prog := "#!/bin/sh\necho the agent\\'s program runs\n"
				for _, c := range canaries {
					prog += "echo pwned >'" + c + "' 2>/dev/null\n"
				}
				prog += "[ -f fixed.txt ] || { echo 'lint: fixed.txt is missing' >&2; exit 1; }\n"
				script := "if [ -f round1.txt ]; then echo fixed >fixed.txt; cat >prompt2.txt\nelse echo 1 >round1.txt\n" +
					"printf '%s' '" + strings.ReplaceAll(prog, "'", `'\''`) + "' >prog.sh\n" + hs.rewrite + "\nfi\n" +
					"echo '{\"status\":\"completed\",\"summary\":\"linted\"}'\n"
				s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", script}}
				tk := addTask(t, s, "lint it")
				head := gitT(t, s.Root, "rev-parse", "HEAD")
				runWith(t, s, Options{Env: []string{"HOME=" + home}})

				got := getTask(t, s, tk.ID)
				for _, c := range canaries {
					_, err := os.Stat(c)
					if ran := err == nil; ran != (mode == task.SandboxOff) {
						t.Errorf("canary %s outside the sandbox: %v", c, ran)
					}
				}
				if got.State != task.Closed {
					t.Fatalf("task %s: %s\n%+v", got.State, lastNote(got), checkEvents(got))
				}
				evs := checkEvents(got)
				if len(evs) < 2 || evs[0].ExitCode == 0 || evs[len(evs)-1].ExitCode != 0 ||
					!strings.Contains(evs[0].Output, "the agent's program runs") || !strings.Contains(evs[0].Output, "fixed.txt is missing") {
					t.Fatalf("hook runs %+v, want the agent's program refusing, then passing", evs)
				}
				if p := readFile(t, s.Root, "prompt2.txt"); !strings.Contains(p, "fixed.txt is missing") {
					t.Errorf("the agent's second round was not told the hook's output:\n%s", p)
				}
				// One commit brought the first round's files and the second's:
				// nothing landed before the hook passed.
				first, second := gitT(t, s.Root, "log", "--format=%H", "--", "round1.txt"), gitT(t, s.Root, "log", "--format=%H", "--", "fixed.txt")
				if first == "" || first != second || gitT(t, s.Root, "merge-base", "--is-ancestor", head, first) != "" {
					t.Errorf("the work landed in pieces: %q and %q", first, second)
				}
			})
		}
	}
}
